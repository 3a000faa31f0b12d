// The configuration module: defaults, and one clear message per bad value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('defaults serve the embedded store on 127.0.0.1:8080', () => {
  const config = loadConfig({});
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.port, 8080);
  assert.equal(config.dataDir, './data');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.hostingApiUrl, 'https://api.github.com');
  assert.equal(config.retentionDays, 90);
  assert.equal(config.logLevel, 'info');
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
    SWITCHYARD_PUBLIC_URL: 'https://switchyard.example.com',
    SWITCHYARD_RETENTION_DAYS: '30',
    LOG_LEVEL: 'debug',
  });
  assert.equal(config.port, 9000);
  assert.equal(config.hostingApiUrl, 'https://ghe.example.com/api/v3', 'trailing slash dropped');
  assert.equal(config.publicUrl, 'https://switchyard.example.com');
  assert.equal(config.retentionDays, 30);
});

test('bad values are refused with a message naming the variable', () => {
  const cases: Record<string, string> = {
    PORT: '70000',
    DATABASE_URL: 'not a url',
    SWITCHYARD_HOSTING_API_URL: 'ftp://x',
    SWITCHYARD_PUBLIC_URL: 'x',
    SWITCHYARD_RETENTION_DAYS: '-5',
    SWITCHYARD_WEBHOOK_SECRET: 'short',
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
