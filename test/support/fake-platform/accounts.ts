// Users, organisations, their memberships and the tokens that act as them: personal tokens,
// and installation tokens of GitHub Apps, which expire.
import { randomBytes } from 'node:crypto';
import type { Account, Caller, Installation, Membership } from './platform-model.ts';
import type { IdSequence } from './id-sequence.ts';

type Grant = { kind: 'user'; account: Account } | { kind: 'installation'; installation: Installation; expiresAt: Date };

export class Accounts {
  private readonly byLogin = new Map<string, Account>();
  private readonly tokens = new Map<string, Grant>();
  private readonly memberships = new Map<string, Map<string, Membership>>();

  constructor(
    private readonly ids: IdSequence,
    private readonly now: () => Date,
  ) {}

  create(login: string, type: Account['type'], id?: bigint): Account {
    if (this.byLogin.has(login.toLowerCase())) throw new Error(`account ${login} exists`);
    const account: Account = { id: id ?? this.ids.next(), login, type };
    this.byLogin.set(login.toLowerCase(), account);
    return account;
  }

  find(login: string): Account | undefined {
    return this.byLogin.get(login.toLowerCase());
  }

  /** The account of a commit e-mail address the platform gave out (`id+login@users.noreply…`). */
  byEmail(email: string): Account | undefined {
    const found = /^(?:([0-9]+)\+)?([^@]+)@users\.noreply\.example$/.exec(email);
    const account = found ? this.find(found[2]!) : undefined;
    return account && (found![1] === undefined || BigInt(found![1]) === account.id) ? account : undefined;
  }

  get(login: string): Account {
    const account = this.find(login);
    if (!account) throw new Error(`no account ${login}`);
    return account;
  }

  /** A personal token of `account`: `token` if given, else a random ghp_ one. */
  issueToken(account: Account, token = `ghp_${randomBytes(18).toString('base64url')}`): string {
    this.tokens.set(token, { kind: 'user', account });
    return token;
  }

  issueInstallationToken(installation: Installation, ttlMs: number): { token: string; expiresAt: Date } {
    const token = `ghs_${randomBytes(18).toString('base64url')}`;
    const expiresAt = new Date(this.now().getTime() + ttlMs);
    this.tokens.set(token, { kind: 'installation', installation, expiresAt });
    return { token, expiresAt };
  }

  revokeToken(token: string): void {
    this.tokens.delete(token);
  }

  /** The caller a token acts as; undefined when unknown or expired. */
  resolveToken(token: string): Caller | undefined {
    const grant = this.tokens.get(token);
    if (!grant) return undefined;
    if (grant.kind === 'user') return { kind: 'user', account: grant.account };
    if (grant.expiresAt <= this.now()) return undefined;
    return { kind: 'installation', account: grant.installation.app.bot, installation: grant.installation };
  }

  setMembership(organisation: string, login: string, membership: Membership): void {
    const key = organisation.toLowerCase();
    if (!this.memberships.has(key)) this.memberships.set(key, new Map());
    this.memberships.get(key)!.set(login.toLowerCase(), membership);
  }

  membership(organisation: string, login: string): Membership | undefined {
    return this.memberships.get(organisation.toLowerCase())?.get(login.toLowerCase());
  }
}
