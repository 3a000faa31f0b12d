// The opaque cursor of a page (DESIGN.md §8): where the page starts, which way it goes, the
// resolved window and the snapshot (highest event id) fixed by the first page, and the filter
// fingerprint, signed with HMAC-SHA256 so it cannot be altered. A fixed binary layout, base64url:
// compact in a URL, and trivially checked before anything else is read from it.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { validationError } from '../../errors.ts';
import { FINGERPRINT_BYTES } from './filter-fingerprint.ts';
import type { TimeWindow } from './time-window.ts';

export type PageDirection = 'next' | 'prev';

/** A keyset position: (received_at in ms, id), in the listing's order. */
export interface KeysetPosition {
  readonly receivedAt: number;
  readonly id: bigint;
}

export interface PageCursor {
  readonly direction: PageDirection;
  readonly position: KeysetPosition;
  readonly window: TimeWindow;
  /** Events with a higher id were written after the walk began and are never shown in it. */
  readonly snapshot: bigint;
  readonly fingerprint: Buffer;
}

const VERSION = 1;
const MAC_BYTES = 16;
// version, direction, received_at, id, window from, window to, snapshot, fingerprint
const BODY_BYTES = 1 + 1 + 8 + 8 + 8 + 8 + 8 + FINGERPRINT_BYTES;
const CURSOR_CHARS = Math.ceil(((BODY_BYTES + MAC_BYTES) * 4) / 3);
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export function encodeCursor(cursor: PageCursor, key: Buffer): string {
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(VERSION, 0);
  body.writeUInt8(cursor.direction === 'next' ? 0 : 1, 1);
  body.writeBigInt64BE(BigInt(cursor.position.receivedAt), 2);
  body.writeBigUInt64BE(cursor.position.id, 10);
  body.writeBigInt64BE(BigInt(cursor.window.from.getTime()), 18);
  body.writeBigInt64BE(BigInt(cursor.window.to.getTime()), 26);
  body.writeBigUInt64BE(cursor.snapshot, 34);
  cursor.fingerprint.copy(body, 42, 0, FINGERPRINT_BYTES);
  return Buffer.concat([body, mac(body, key)]).toString('base64url');
}

/** The cursor, or a 422 on ['query', 'cursor'] when it is malformed, altered or for other filters. */
export function decodeCursor(text: string, key: Buffer, fingerprint: Buffer): PageCursor {
  const bytes = BASE64URL.test(text) && text.length === CURSOR_CHARS ? Buffer.from(text, 'base64url') : undefined;
  // Re-encoding must give the text back: base64url has several spellings of its last character.
  if (!bytes || bytes.length !== BODY_BYTES + MAC_BYTES || bytes.toString('base64url') !== text) throw invalid();
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(bytes.subarray(BODY_BYTES), mac(body, key)) || body.readUInt8(0) !== VERSION) throw invalid();
  if (!body.subarray(42).equals(fingerprint)) {
    throw validationError(['query', 'cursor'], 'was issued for other filters or another repository: repeat the filters of the link it came from, or drop the cursor to start again', 'cursor_mismatch');
  }
  return {
    direction: body.readUInt8(1) === 0 ? 'next' : 'prev',
    position: { receivedAt: Number(body.readBigInt64BE(2)), id: body.readBigUInt64BE(10) },
    window: { from: new Date(Number(body.readBigInt64BE(18))), to: new Date(Number(body.readBigInt64BE(26))) },
    snapshot: body.readBigUInt64BE(34),
    fingerprint: Buffer.from(body.subarray(42)),
  };
}

function mac(body: Buffer, key: Buffer): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);
}

function invalid() {
  return validationError(['query', 'cursor'], 'is not a cursor this service issued (malformed or altered): take cursors from the Link header as they are', 'cursor_invalid');
}
