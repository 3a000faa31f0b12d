// The per-address budget of token verifications: a bucket that refills with time, gives back
// what confirmed tokens cost, groups an IPv6 /64, and forgets the least recent address first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressKey } from '../../src/domain/address-key.ts';
import { VerificationBudget } from '../../src/hosting/verification-budget.ts';

test('a bucket of `perMinute` verifications refills at that rate', () => {
  let now = 0;
  const budget = new VerificationBudget(6, 100, () => now);
  for (let i = 0; i < 6; i++) assert.deepEqual(budget.take('203.0.113.9'), { granted: true });
  assert.deepEqual(budget.take('203.0.113.9'), { granted: false, retryAfterSeconds: 10 });
  now += 10_000;
  assert.deepEqual(budget.take('203.0.113.9'), { granted: true });
  assert.equal(budget.take('203.0.113.9').granted, false);
  budget.refund('203.0.113.9');
  assert.equal(budget.take('203.0.113.9').granted, true, 'a refund is one more');
  now += 3_600_000;
  for (let i = 0; i < 6; i++) assert.equal(budget.take('203.0.113.9').granted, true, 'never more than the bucket holds');
  assert.equal(budget.take('203.0.113.9').granted, false);
});

test('IPv6 addresses of one /64 share a bucket; IPv4-mapped addresses are IPv4', () => {
  assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('::ffff:192.0.2.7'), '192.0.2.7');
  const budget = new VerificationBudget(1, 100, () => 0);
  assert.equal(budget.take('2001:db8:1:2::a').granted, true);
  assert.equal(budget.take('2001:db8:1:2::b').granted, false);
  assert.equal(budget.take('2001:db8:1:3::a').granted, true);
});

test('the table is bounded: the least recently seen address is forgotten first', () => {
  const budget = new VerificationBudget(1, 2, () => 0);
  budget.take('198.51.100.1');
  budget.take('198.51.100.2');
  budget.take('198.51.100.1');
  budget.take('198.51.100.3');
  assert.equal(budget.take('198.51.100.2').granted, true, 'forgotten: a fresh bucket');
  assert.equal(budget.take('198.51.100.3').granted, false, 'still known');
});
