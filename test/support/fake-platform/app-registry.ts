// GitHub Apps of the fake platform: each has an RSA key pair (the private key handed to the
// test as PEM), a bot account, and installations on accounts. Requests as the app itself carry
// an RS256 JWT that is verified here as the platform does.
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import type { Accounts } from './accounts.ts';
import type { IdSequence } from './id-sequence.ts';
import type { Account, FakeApp, Installation, RepositoryRecord } from './platform-model.ts';

// RSA key generation takes about half a second: the n-th app of every platform in a process
// gets the same key, so only tests that create several apps pay for several keys.
const keyPool: string[] = [];

function privateKeyNumber(n: number): string {
  while (keyPool.length <= n) {
    keyPool.push(generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey);
  }
  return keyPool[n]!;
}

export class AppRegistry {
  private readonly apps = new Map<bigint, FakeApp>();
  private readonly installations = new Map<bigint, Installation>();

  constructor(
    private readonly accounts: Accounts,
    private readonly ids: IdSequence,
    private readonly now: () => Date,
  ) {}

  /** An app; `keyless` for one that never authenticates over HTTP (the fake CI). */
  create(slug: string, owner: Account, keyless = false): FakeApp {
    const privateKey = keyless ? '' : privateKeyNumber([...this.apps.values()].filter((a) => a.privateKey).length);
    const app: FakeApp = {
      id: this.ids.next(),
      slug,
      owner,
      bot: this.accounts.create(`${slug}[bot]`, 'Bot'),
      publicKey: privateKey ? createPublicKey(privateKey) : undefined,
      privateKey,
    };
    this.apps.set(app.id, app);
    return app;
  }

  install(app: FakeApp, account: Account, repositories: 'all' | string[] = 'all'): Installation {
    const installation: Installation = {
      id: this.ids.next(),
      app,
      account,
      repositories: repositories === 'all' ? 'all' : new Set(repositories.map((name) => `${account.login}/${name}`.toLowerCase())),
    };
    this.installations.set(installation.id, installation);
    return installation;
  }

  installation(id: bigint): Installation | undefined {
    return this.installations.get(id);
  }

  /** The installation of `app` that covers `repo`, if any. */
  installationOn(repo: RepositoryRecord, app?: FakeApp): Installation | undefined {
    for (const installation of this.installations.values()) {
      if (app && installation.app !== app) continue;
      if (covers(installation, repo)) return installation;
    }
    return undefined;
  }

  /** The installation of `app` on `account`, if any. */
  installationOf(account: Account, app: FakeApp): Installation | undefined {
    return [...this.installations.values()].find((i) => i.app === app && i.account === account);
  }

  /** The app a JWT proves to be, or the platform's message saying why not. */
  verifyJwt(jwt: string): FakeApp | string {
    const parts = jwt.split('.');
    if (parts.length !== 3) return 'A JSON web token could not be decoded';
    const [header, payload, signature] = parts as [string, string, string];
    let claims: { iat?: unknown; exp?: unknown; iss?: unknown };
    try {
      if (JSON.parse(Buffer.from(header, 'base64url').toString()).alg !== 'RS256') return 'A JSON web token could not be decoded';
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    } catch {
      return 'A JSON web token could not be decoded';
    }
    const app = /^[0-9]+$/.test(String(claims.iss)) ? this.apps.get(BigInt(String(claims.iss))) : undefined;
    if (!app) return 'Integration not found';
    if (!app.publicKey || !verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), app.publicKey, Buffer.from(signature, 'base64url'))) return 'A JSON web token could not be decoded';
    const now = Math.floor(this.now().getTime() / 1000);
    if (typeof claims.iat !== 'number' || claims.iat > now + 60) return "'Issued at' claim ('iat') must be an Integer representing the time that the assertion was issued";
    if (typeof claims.exp !== 'number' || claims.exp <= now) return "'Expiration time' claim ('exp') must be a numeric value representing the future time at which the assertion expires";
    if (claims.exp > now + 660) return "'Expiration time' claim ('exp') is too far in the future";
    return app;
  }
}

export function covers(installation: Installation, repo: RepositoryRecord): boolean {
  if (installation.account !== repo.owner) return false;
  return installation.repositories === 'all' || installation.repositories.has(`${repo.owner.login}/${repo.name}`.toLowerCase());
}
