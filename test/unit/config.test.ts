// The configuration module: defaults, and one clear message per bad value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, DEFAULT_LIMITS, loadConfig } from '../../src/config.ts';

test('defaults serve the embedded store on 127.0.0.1:8080', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8080);
  assert.equal(config.dataDir, './data');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.hostingApiUrl, 'https://api.github.com');
  assert.equal(config.hostingWebUrl, 'https://github.com');
  assert.equal(config.retentionDays, 90);
  assert.equal(config.mergeQueuePollSeconds, 10);
  assert.equal(config.mergeQueueLeaseSeconds, 15);
  assert.equal(config.logLevel, 'info');
  assert.equal(config.databasePoolSize, 10);
  assert.equal(config.statementTimeoutMs, 30_000);
  assert.equal(config.webhookMaxAgeSeconds, 0, 'no bound on a payload age: replays are recognised by their body, then ordered by the platform times');
  assert.ok(Object.isFrozen(config));
});

test('every setting is read', () => {
  const config = loadConfig({
    HOST: '0.0.0.0',
    PORT: '9000',
    SWITCHYARD_DATA_DIR: '/var/lib/switchyard',
    DATABASE_URL: 'postgres://u@db:5432/sw',
    SWITCHYARD_SERVICE_TOKEN: 'a-long-service-token',
    SWITCHYARD_WEBHOOK_SECRET: 'a-long-webhook-secret',
    SWITCHYARD_HOSTING_API_URL: 'https://ghe.example.com/api/v3/',
    SWITCHYARD_HOSTING_WEB_URL: 'https://ghe.example.com/',
    SWITCHYARD_PUBLIC_URL: 'https://switchyard.example.com',
    SWITCHYARD_RETENTION_DAYS: '30',
    SWITCHYARD_MERGE_QUEUE_POLL_SECONDS: '2',
    SWITCHYARD_MERGE_QUEUE_LEASE_SECONDS: '5',
    SWITCHYARD_DB_POOL_SIZE: '25',
    SWITCHYARD_STATEMENT_TIMEOUT_MS: '5000',
    SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS: '600',
    LOG_LEVEL: 'debug',
  });
  assert.equal(config.webhookMaxAgeSeconds, 600);
  assert.equal(config.mergeQueuePollSeconds, 2);
  assert.equal(config.mergeQueueLeaseSeconds, 5);
  assert.deepEqual([config.databasePoolSize, config.statementTimeoutMs], [25, 5000]);
  assert.equal(config.port, 9000);
  assert.equal(config.hostingApiUrl, 'https://ghe.example.com/api/v3', 'trailing slash dropped');
  assert.equal(config.hostingWebUrl, 'https://ghe.example.com');
  assert.equal(config.publicUrl, 'https://switchyard.example.com');
  assert.equal(config.retentionDays, 30);
});

test('bad values are refused with a message naming the variable', () => {
  const cases: Record<string, string> = {
    PORT: '70000',
    DATABASE_URL: 'not a url',
    SWITCHYARD_HOSTING_API_URL: 'ftp://x',
    SWITCHYARD_HOSTING_WEB_URL: 'github.com',
    SWITCHYARD_PUBLIC_URL: 'x',
    SWITCHYARD_RETENTION_DAYS: '-5',
    SWITCHYARD_MERGE_QUEUE_POLL_SECONDS: '0',
    SWITCHYARD_MERGE_QUEUE_LEASE_SECONDS: '1',
    SWITCHYARD_DB_POOL_SIZE: '0',
    SWITCHYARD_STATEMENT_TIMEOUT_MS: '30s',
    SWITCHYARD_WEBHOOK_SECRET: 'short',
    SWITCHYARD_WEBHOOK_MAX_AGE_SECONDS: '59',
    LOG_LEVEL: 'verbose',
  };
  for (const [name, value] of Object.entries(cases)) {
    assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => error instanceof ConfigError && error.message.startsWith(name), name);
  }
});

test('a DATABASE_URL that does not parse is not echoed: it may hold a password', () => {
  const value = 'postgres://switchyard:s3cret@db:99999/sw'; // the port does not parse
  assert.throws(
    () => loadConfig({ DATABASE_URL: value }),
    (error: unknown) => error instanceof ConfigError && error.message.startsWith('DATABASE_URL') && !error.message.includes('s3cret'),
  );
});

test('hosting credentials: a token, or a GitHub App whose key is PEM text, PEM with \\n escapes, or a file', async () => {
  const { generateKeyPairSync } = await import('node:crypto');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const pem = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs1', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
  assert.equal(loadConfig({}).hostingCredentials, undefined);
  assert.equal(loadConfig({}).tokenVerificationsPerMinute, 30);
  assert.equal(loadConfig({ SWITCHYARD_TOKEN_VERIFICATIONS_PER_MINUTE: '120' }).tokenVerificationsPerMinute, 120);
  assert.deepEqual(loadConfig({ SWITCHYARD_HOSTING_TOKEN: 'ghp_abc' }).hostingCredentials, { kind: 'token', token: 'ghp_abc' });
  assert.deepEqual(loadConfig({ SWITCHYARD_GITHUB_APP_ID: '12345', SWITCHYARD_GITHUB_APP_PRIVATE_KEY: pem }).hostingCredentials, { kind: 'app', appId: '12345', privateKey: pem });
  const escaped = pem.replace(/\n/g, '\\n');
  assert.equal((loadConfig({ SWITCHYARD_GITHUB_APP_ID: '12345', SWITCHYARD_GITHUB_APP_PRIVATE_KEY: escaped }).hostingCredentials as { privateKey: string }).privateKey, pem);
  const file = join(mkdtempSync(join(tmpdir(), 'switchyard-key-')), 'app.pem');
  writeFileSync(file, pem, { mode: 0o600 });
  assert.equal((loadConfig({ SWITCHYARD_GITHUB_APP_ID: '12345', SWITCHYARD_GITHUB_APP_PRIVATE_KEY: file }).hostingCredentials as { privateKey: string }).privateKey, pem);
});

test('bad hosting credentials stop start-up with one line that never shows the key', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ SWITCHYARD_HOSTING_TOKEN: 'ghp_a', SWITCHYARD_GITHUB_APP_ID: '1' }, /exclusive/],
    [{ SWITCHYARD_HOSTING_TOKEN: 'two words' }, /^SWITCHYARD_HOSTING_TOKEN/],
    [{ SWITCHYARD_GITHUB_APP_ID: 'abc', SWITCHYARD_GITHUB_APP_PRIVATE_KEY: '/nowhere' }, /^SWITCHYARD_GITHUB_APP_ID/],
    [{ SWITCHYARD_GITHUB_APP_ID: '7' }, /^SWITCHYARD_GITHUB_APP_PRIVATE_KEY must be set/],
    [{ SWITCHYARD_GITHUB_APP_PRIVATE_KEY: 'MIIEsecretsecret' }, /^SWITCHYARD_GITHUB_APP_ID/],
    [{ SWITCHYARD_GITHUB_APP_ID: '7', SWITCHYARD_GITHUB_APP_PRIVATE_KEY: 'MIIEsecretsecret' }, /^SWITCHYARD_GITHUB_APP_PRIVATE_KEY/],
    [{ SWITCHYARD_GITHUB_APP_ID: '7', SWITCHYARD_GITHUB_APP_PRIVATE_KEY: '-----BEGIN RSA PRIVATE KEY-----\nMIIEsecretsecret\n-----END RSA PRIVATE KEY-----' }, /not a valid PEM/],
    [{ SWITCHYARD_TOKEN_VERIFICATIONS_PER_MINUTE: '0' }, /^SWITCHYARD_TOKEN_VERIFICATIONS_PER_MINUTE/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => loadConfig(env), (error: unknown) => error instanceof ConfigError && message.test(error.message) && !error.message.includes('secretsecret'), JSON.stringify(env));
  }
});

test('limits per client, credential and owner, and trusted proxies (issue 20)', () => {
  const defaults = loadConfig({});
  assert.deepEqual(defaults.limits, DEFAULT_LIMITS);
  assert.deepEqual(defaults.trustedProxies, []);
  const set = loadConfig({
    SWITCHYARD_BODIES_IN_FLIGHT_MIB: '64',
    SWITCHYARD_BODIES_IN_FLIGHT_PER_CLIENT_MIB: '16',
    SWITCHYARD_BODIES_READ_PER_ADDRESS: '5',
    SWITCHYARD_RATE_LIMIT_PER_ADDRESS: '100',
    SWITCHYARD_RATE_LIMIT_PER_CREDENTIAL: '50',
    SWITCHYARD_RATE_LIMIT_PER_OWNER: '70',
    SWITCHYARD_EXPENSIVE_READS_PER_OWNER: '1',
    SWITCHYARD_EXPENSIVE_READS_TOTAL: '4',
    SWITCHYARD_TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,::1',
    SWITCHYARD_MAX_CONNECTIONS: '1000',
    SWITCHYARD_MAX_CONNECTIONS_PER_ADDRESS: '20',
    SWITCHYARD_HEADERS_TIMEOUT_SECONDS: '5',
    SWITCHYARD_REQUEST_TIMEOUT_SECONDS: '60',
    SWITCHYARD_BODY_STALL_TIMEOUT_SECONDS: '3',
    SWITCHYARD_KEEP_ALIVE_TIMEOUT_SECONDS: '65',
  });
  assert.deepEqual(set.limits, {
    bodiesInFlightBytes: 64 * 1024 * 1024,
    bodiesInFlightPerClientBytes: 16 * 1024 * 1024,
    bodiesReadPerAddress: 5,
    requestsPerMinutePerAddress: 100,
    requestsPerMinutePerCredential: 50,
    requestsPerMinutePerOwner: 70,
    expensiveReadsPerOwner: 1,
    expensiveReadsTotal: 4,
    connectionsTotal: 1000,
    connectionsPerAddress: 20,
    headersTimeoutMs: 5000,
    requestTimeoutMs: 60_000,
    bodyStallTimeoutMs: 3000,
    keepAliveTimeoutMs: 65_000,
  });
  assert.deepEqual(set.trustedProxies, ['10.0.0.1', '192.168.0.0/16', '::1']);
  for (const [name, value] of [['SWITCHYARD_TRUSTED_PROXIES', 'proxy.example'], ['SWITCHYARD_TRUSTED_PROXIES', '10.0.0.0/33'], ['SWITCHYARD_BODIES_IN_FLIGHT_PER_CLIENT_MIB', '4'], ['SWITCHYARD_BODIES_READ_PER_ADDRESS', '0'], ['SWITCHYARD_RATE_LIMIT_PER_OWNER', '0'], ['SWITCHYARD_MAX_CONNECTIONS_PER_ADDRESS', '0'], ['SWITCHYARD_BODY_STALL_TIMEOUT_SECONDS', '0.5'], ['SWITCHYARD_HEADERS_TIMEOUT_SECONDS', '601']]) {
    assert.throws(() => loadConfig({ [name!]: value }), (error: unknown) => error instanceof ConfigError && error.message.startsWith(name!), `${name}=${value}`);
  }
  assert.throws(() => loadConfig({ SWITCHYARD_HEADERS_TIMEOUT_SECONDS: '30', SWITCHYARD_REQUEST_TIMEOUT_SECONDS: '20' }), (error: unknown) => error instanceof ConfigError && error.message === 'SWITCHYARD_HEADERS_TIMEOUT_SECONDS (30) must not be more than SWITCHYARD_REQUEST_TIMEOUT_SECONDS (20)');
});
