// Page cursors (src/domain/activity-log/page-cursor.ts): what is encoded comes back exactly; any
// altered byte, another key or a cursor of other filters is a 422 on ['query', 'cursor'].
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ValidationError } from '../../src/errors.ts';
import { decodeCursor, encodeCursor, type PageCursor } from '../../src/domain/activity-log/index.ts';

const KEY = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
const FINGERPRINT = Buffer.from('a1b2c3d4e5f60718', 'hex');

const cursor: PageCursor = {
  direction: 'prev',
  position: { receivedAt: Date.UTC(2024, 4, 1, 12, 0, 0, 123), id: 9223372036854775807n },
  window: { from: new Date(Date.UTC(2024, 3, 30)), to: new Date(Date.UTC(2024, 4, 1)) },
  snapshot: 12345678901234n,
  fingerprint: FINGERPRINT,
};

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    assert.deepEqual(error.issues[0]!.loc, ['query', 'cursor']);
    return error.issues[0]!.type;
  }
  assert.fail('the cursor was accepted');
}

test('a cursor decodes to exactly what was encoded', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('next' as const, 'prev' as const),
      fc.integer({ min: 0, max: 8_640_000_000_000 }),
      fc.bigInt({ min: 0n, max: 9223372036854775807n }),
      fc.bigInt({ min: 0n, max: 9223372036854775807n }),
      (direction, receivedAt, id, snapshot) => {
        const given = { ...cursor, direction, position: { receivedAt, id }, snapshot };
        assert.deepEqual(decodeCursor(encodeCursor(given, KEY), KEY, FINGERPRINT), given);
      },
    ),
  );
});

test('a cursor is short, URL-safe text', () => {
  assert.match(encodeCursor(cursor, KEY), /^[A-Za-z0-9_-]{88}$/);
});

test('changing any byte of a cursor makes it invalid', () => {
  const bytes = Buffer.from(encodeCursor(cursor, KEY), 'base64url');
  for (let index = 0; index < bytes.length; index++) {
    const altered = Buffer.from(bytes);
    altered[index] = altered[index]! ^ 0x01;
    assert.equal(refusal(() => decodeCursor(altered.toString('base64url'), KEY, FINGERPRINT)), 'cursor_invalid', `byte ${index}`);
  }
});

test('a cursor signed with another key, or malformed, is invalid', () => {
  const text = encodeCursor(cursor, KEY);
  for (const bad of [encodeCursor(cursor, Buffer.alloc(16, 7)), '', 'abc', text.slice(1), `${text}A`, `${text.slice(0, -2)}==`, text.replace(/./, '+')]) {
    assert.equal(refusal(() => decodeCursor(bad, KEY, FINGERPRINT)), 'cursor_invalid', bad);
  }
});

test('a cursor of other filters is refused as such', () => {
  const text = encodeCursor(cursor, KEY);
  assert.equal(refusal(() => decodeCursor(text, KEY, Buffer.from('a1b2c3d4e5f60719', 'hex'))), 'cursor_mismatch');
});
