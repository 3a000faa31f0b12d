// The only reader of process.env: every setting of DESIGN.md §1, validated once and frozen.
// A bad value throws ConfigError, whose message is the one line start-up prints.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

export class ConfigError extends Error {}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface Config {
  readonly host: string;
  readonly port: number;
  /** A second port serving only /healthz and /readyz (src/http/health-listener.ts), or none. */
  readonly healthPort: number | undefined;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** PostgreSQL only: connections in the pool, and the server-side limit of one statement. */
  readonly databasePoolSize: number;
  readonly statementTimeoutMs: number;
  /** SWITCHYARD_COLUMNAR_COPY: on (default) or off; aggregates from a columnar copy of the events (issue 16). */
  readonly columnarCopy: boolean;
  readonly serviceToken: string | undefined;
  readonly webhookSecret: string | undefined;
  /** how far back a webhook payload's own time may lie (seconds): older deliveries are refused as possible replays */
  readonly webhookMaxAgeSeconds: number;
  readonly hostingApiUrl: string;
  /** the hosting platform's web host: pull requests' pages the merge queue links to when no webhook told them */
  readonly hostingWebUrl: string;
  /** how the merge queue acts on the hosting platform (DESIGN.md §10); none when not set */
  readonly hostingCredentials: HostingCredentials | undefined;
  /** hosting tokens one client address may have verified per minute */
  readonly tokenVerificationsPerMinute: number;
  readonly publicUrl: string | undefined;
  readonly retentionDays: number;
  /** the merge-queue executor: how often running checks are read without a webhook (seconds) */
  readonly mergeQueuePollSeconds: number;
  /** the merge-queue executor: how long a queue's lease lasts unrenewed, the takeover time (seconds) */
  readonly mergeQueueLeaseSeconds: number;
  readonly logLevel: LogLevel;
  /** what one client, credential or owner may take of the service (docs/security.md) */
  readonly limits: Limits;
  /** addresses (or CIDR ranges) of the proxies whose X-Forwarded-* headers are believed; none by default */
  readonly trustedProxies: readonly string[];
}

export interface Limits {
  /** bytes of request bodies held at once, in all and per client address */
  readonly bodiesInFlightBytes: number;
  readonly bodiesInFlightPerClientBytes: number;
  /** request bodies read and parsed at once from one client address; the others wait unread */
  readonly bodiesReadPerAddress: number;
  /** requests per minute from one client address, of one credential, and on one owner's resources */
  readonly requestsPerMinutePerAddress: number;
  readonly requestsPerMinutePerCredential: number;
  readonly requestsPerMinutePerOwner: number;
  /** activity-log lists and aggregates running at once, per owner and in all */
  readonly expensiveReadsPerOwner: number;
  readonly expensiveReadsTotal: number;
  /** connections open at once, in all and from one client address (a trusted proxy's count in all only) */
  readonly connectionsTotal: number;
  readonly connectionsPerAddress: number;
  /** how long a client may take to send its headers, its whole request, and each part of its body */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly bodyStallTimeoutMs: number;
  /** how long a connection may stay open between requests */
  readonly keepAliveTimeoutMs: number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  bodiesInFlightBytes: 128 * 1024 * 1024,
  bodiesInFlightPerClientBytes: 32 * 1024 * 1024,
  bodiesReadPerAddress: 2,
  // Above what one process serves (about 7,000 requests a second at best on a 2-core machine), so
  // a legitimate client at full speed (a CI key posting scope reports, an ingester) is never
  // throttled by default; a deployment shared by tenants sets them lower. What keeps one owner
  // from taking the storage from the others is the concurrency of expensive reads below.
  requestsPerMinutePerAddress: 600_000,
  requestsPerMinutePerCredential: 600_000,
  requestsPerMinutePerOwner: 600_000,
  expensiveReadsPerOwner: 2,
  expensiveReadsTotal: 6,
  connectionsTotal: 4096,
  connectionsPerAddress: 256,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  bodyStallTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
});

const MiB = 1024 * 1024;

/**
 * No bound on a webhook payload's own age by default: a replay is already recognised by its body
 * (for WEBHOOK_DIGEST_SECONDS at least) and, after that, made harmless by ordering pull request
 * state by the platform's own times; a bound would refuse redeliveries after a long outage and
 * payloads that carry an old time for another reason. 0 means no bound.
 */
export const DEFAULT_WEBHOOK_MAX_AGE_SECONDS = 0;
/** How long the digests of applied webhook bodies are kept at least (a week). */
export const WEBHOOK_DIGEST_SECONDS = 7 * 24 * 3600;

function limits(env: Env): Limits {
  const seconds = (name: string, fallbackMs: number, max: number) => integer(env, name, fallbackMs / 1000, 1, max) * 1000;
  const headersTimeoutMs = seconds('SWITCHYARD_HEADERS_TIMEOUT_SECONDS', DEFAULT_LIMITS.headersTimeoutMs, 600);
  const requestTimeoutMs = seconds('SWITCHYARD_REQUEST_TIMEOUT_SECONDS', DEFAULT_LIMITS.requestTimeoutMs, 3600);
  // Node refuses to start a server whose headers may take longer than the whole request.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(`SWITCHYARD_HEADERS_TIMEOUT_SECONDS (${headersTimeoutMs / 1000}) must not be more than SWITCHYARD_REQUEST_TIMEOUT_SECONDS (${requestTimeoutMs / 1000})`);
  }
  return Object.freeze({
    bodiesInFlightBytes: integer(env, 'SWITCHYARD_BODIES_IN_FLIGHT_MIB', DEFAULT_LIMITS.bodiesInFlightBytes / MiB, 16, 1_000_000) * MiB,
    bodiesInFlightPerClientBytes: integer(env, 'SWITCHYARD_BODIES_IN_FLIGHT_PER_CLIENT_MIB', DEFAULT_LIMITS.bodiesInFlightPerClientBytes / MiB, 11, 1_000_000) * MiB,
    bodiesReadPerAddress: integer(env, 'SWITCHYARD_BODIES_READ_PER_ADDRESS', DEFAULT_LIMITS.bodiesReadPerAddress, 1, 1_000_000),
    requestsPerMinutePerAddress: integer(env, 'SWITCHYARD_RATE_LIMIT_PER_ADDRESS', DEFAULT_LIMITS.requestsPerMinutePerAddress, 1, 10_000_000),
    requestsPerMinutePerCredential: integer(env, 'SWITCHYARD_RATE_LIMIT_PER_CREDENTIAL', DEFAULT_LIMITS.requestsPerMinutePerCredential, 1, 10_000_000),
    requestsPerMinutePerOwner: integer(env, 'SWITCHYARD_RATE_LIMIT_PER_OWNER', DEFAULT_LIMITS.requestsPerMinutePerOwner, 1, 10_000_000),
    expensiveReadsPerOwner: integer(env, 'SWITCHYARD_EXPENSIVE_READS_PER_OWNER', DEFAULT_LIMITS.expensiveReadsPerOwner, 1, 1000),
    expensiveReadsTotal: integer(env, 'SWITCHYARD_EXPENSIVE_READS_TOTAL', DEFAULT_LIMITS.expensiveReadsTotal, 1, 1000),
    connectionsTotal: integer(env, 'SWITCHYARD_MAX_CONNECTIONS', DEFAULT_LIMITS.connectionsTotal, 1, 1_000_000),
    connectionsPerAddress: integer(env, 'SWITCHYARD_MAX_CONNECTIONS_PER_ADDRESS', DEFAULT_LIMITS.connectionsPerAddress, 1, 1_000_000),
    headersTimeoutMs,
    requestTimeoutMs,
    bodyStallTimeoutMs: seconds('SWITCHYARD_BODY_STALL_TIMEOUT_SECONDS', DEFAULT_LIMITS.bodyStallTimeoutMs, 600),
    keepAliveTimeoutMs: seconds('SWITCHYARD_KEEP_ALIVE_TIMEOUT_SECONDS', DEFAULT_LIMITS.keepAliveTimeoutMs, 600),
  });
}

export type HostingCredentials = { kind: 'token'; token: string } | { kind: 'app'; appId: string; privateKey: string };

type Env = Record<string, string | undefined>;

/** SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS: 0 (no bound), or 60 seconds to 30 days. */
function webhookMaxAge(env: Env): number {
  const name = 'SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS';
  const seconds = integer(env, name, DEFAULT_WEBHOOK_MAX_AGE_SECONDS, 0, 30 * 24 * 3600);
  if (seconds > 0 && seconds < 60) throw new ConfigError(`${name} must be 0 (no bound) or from 60 to ${30 * 24 * 3600}, got "${env[name]}"`);
  return seconds;
}

function healthPort(env: Env): number | undefined {
  const name = 'SWITCHYARD_HEALTH_PORT';
  if (env[name] === undefined || env[name] === '') return undefined;
  const port = integer(env, name, 0, 0, 65535);
  if (port !== 0 && port === integer(env, 'PORT', 8080, 0, 65535)) throw new ConfigError(`${name} must differ from PORT (${port})`);
  return port;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'on' && raw !== 'off') throw new ConfigError(`${name} must be on or off, got "${raw}"`);
  return raw === 'on';
}

function url(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // Not echoed: a URL that does not parse may still hold a password (postgres://u:secret@db:99999).
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}); the value given does not parse (not shown, it may hold a password)`);
  }
  if (!protocols.includes(parsed.protocol.slice(0, -1))) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${parsed.protocol.slice(0, -1)}"`);
  }
  return raw.replace(/\/+$/, '');
}

function secret(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (raw.length < 16 || /\s/.test(raw)) {
    throw new ConfigError(`${name} must be at least 16 characters with no white space`);
  }
  return raw;
}

/** PEM text (newlines possibly written as \\n, as .env files do), or the path of a PEM file. */
function privateKey(raw: string): string {
  const name = 'SWITCHYARD_GITHUB_APP_PRIVATE_KEY';
  let pem = raw.replace(/\\n/g, '\n');
  if (!pem.includes('-----BEGIN')) {
    try {
      pem = readFileSync(raw, 'utf8');
    } catch {
      // Not echoed: a key pasted without its BEGIN line would be printed whole.
      throw new ConfigError(`${name} must be a PEM private key or the path of a readable file holding one (the value given is neither; not shown)`);
    }
  }
  try {
    createPrivateKey(pem);
  } catch {
    throw new ConfigError(`${name} is not a valid PEM private key (not shown)`);
  }
  return pem;
}

function hostingCredentials(env: Env): HostingCredentials | undefined {
  const token = env.SWITCHYARD_HOSTING_TOKEN || undefined;
  const appId = env.SWITCHYARD_GITHUB_APP_ID || undefined;
  const key = env.SWITCHYARD_GITHUB_APP_PRIVATE_KEY || undefined;
  if (token !== undefined && (appId !== undefined || key !== undefined)) {
    throw new ConfigError('SWITCHYARD_HOSTING_TOKEN and SWITCHYARD_GITHUB_APP_ID/SWITCHYARD_GITHUB_APP_PRIVATE_KEY are exclusive: set a token or a GitHub App, not both');
  }
  if (token !== undefined) {
    if (/\s/.test(token)) throw new ConfigError('SWITCHYARD_HOSTING_TOKEN must have no white space');
    return { kind: 'token', token };
  }
  if (appId === undefined && key === undefined) return undefined;
  if (appId === undefined || !/^[1-9][0-9]{0,18}$/.test(appId)) throw new ConfigError(`SWITCHYARD_GITHUB_APP_ID must be the app's numeric id${appId === undefined ? ' (SWITCHYARD_GITHUB_APP_PRIVATE_KEY is set)' : `, got "${appId}"`}`);
  if (key === undefined) throw new ConfigError('SWITCHYARD_GITHUB_APP_PRIVATE_KEY must be set with SWITCHYARD_GITHUB_APP_ID');
  return { kind: 'app', appId, privateKey: privateKey(key) };
}

function trustedProxies(env: Env): readonly string[] {
  const raw = env.SWITCHYARD_TRUSTED_PROXIES ?? '';
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    if (family === 0 || rest.length > 0 || (bits !== undefined && (!/^[0-9]{1,3}$/.test(bits) || Number(bits) > max))) {
      throw new ConfigError(`SWITCHYARD_TRUSTED_PROXIES must list IP addresses or CIDR ranges separated by commas, got "${entry}"`);
    }
  }
  return Object.freeze(entries);
}

function logLevel(env: Env): LogLevel {
  const raw = env.LOG_LEVEL ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  }
  return raw as LogLevel;
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  if (/\s/.test(host)) throw new ConfigError(`HOST must be a host name or address, got "${host}"`);
  return Object.freeze({
    host,
    port: integer(env, 'PORT', 8080, 0, 65535),
    healthPort: healthPort(env),
    dataDir: env.SWITCHYARD_DATA_DIR || './data',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    databasePoolSize: integer(env, 'SWITCHYARD_DB_POOL_SIZE', 10, 1, 1000),
    statementTimeoutMs: integer(env, 'SWITCHYARD_STATEMENT_TIMEOUT_MS', 30_000, 100, 3_600_000),
    columnarCopy: onOff(env, 'SWITCHYARD_COLUMNAR_COPY', true),
    serviceToken: secret(env, 'SWITCHYARD_SERVICE_TOKEN'),
    webhookSecret: secret(env, 'SWITCHYARD_WEBHOOK_SECRET'),
    webhookMaxAgeSeconds: webhookMaxAge(env),
    hostingApiUrl: url(env, 'SWITCHYARD_HOSTING_API_URL', ['http', 'https']) ?? 'https://api.github.com',
    hostingWebUrl: url(env, 'SWITCHYARD_HOSTING_WEB_URL', ['http', 'https']) ?? 'https://github.com',
    hostingCredentials: hostingCredentials(env),
    tokenVerificationsPerMinute: integer(env, 'SWITCHYARD_TOKEN_VERIFICATIONS_PER_MINUTE', 30, 1, 1_000_000),
    publicUrl: url(env, 'SWITCHYARD_PUBLIC_URL', ['http', 'https']),
    retentionDays: integer(env, 'SWITCHYARD_RETENTION_DAYS', 90, 1, 36500),
    mergeQueuePollSeconds: integer(env, 'SWITCHYARD_MERGE_QUEUE_POLL_SECONDS', 10, 1, 3600),
    mergeQueueLeaseSeconds: integer(env, 'SWITCHYARD_MERGE_QUEUE_LEASE_SECONDS', 15, 2, 3600),
    logLevel: logLevel(env),
    limits: limits(env),
    trustedProxies: trustedProxies(env),
  });
}

/** What the command line (src/cli/) reads of the environment: where the API is and how to call it. */
export interface ClientConfig {
  /** SWITCHYARD_URL: the API's base, without /v1. */
  readonly url: string;
  /** SWITCHYARD_TOKEN: the bearer token to send. */
  readonly token: string | undefined;
  /** SWITCHYARD_DATA_DIR: where a local server keeps its generated service token. */
  readonly dataDir: string;
  /** GITHUB_EVENT_PATH: GitHub Actions' event payload (a pull request's head and base). */
  readonly githubEventPath: string | undefined;
}

export function loadClientConfig(env: Env = process.env): ClientConfig {
  return Object.freeze({
    url: url(env, 'SWITCHYARD_URL', ['http', 'https']) ?? 'http://127.0.0.1:8080',
    token: env.SWITCHYARD_TOKEN || undefined,
    dataDir: env.SWITCHYARD_DATA_DIR || './data',
    githubEventPath: env.GITHUB_EVENT_PATH || undefined,
  });
}
