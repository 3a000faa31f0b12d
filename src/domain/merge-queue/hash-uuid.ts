// Uuids derived from texts, fast enough to name ten thousand proposed batches in one re-plan
// (node:crypto's SHA-1 costs several microseconds a call here, most of it crossing into C++;
// this is a few hundred nanoseconds, and allocates nothing but the uuid string). Not a
// cryptographic hash: the ids only need to be stable and not collide by accident. Texts are fed
// in parts, so no key string is ever built.

let a = 0;
let b = 0;
let c = 0;
let d = 0;
let length = 0;

function unit(k: number): void {
  const ma = Math.imul(a ^ k, 0x01000193);
  const mb = Math.imul(b ^ k, 0x5bd1e995);
  const mc = Math.imul(c ^ k, 0x1b873593);
  const md = Math.imul(d ^ k, 0xcc9e2d51);
  a = (ma << 5) | (ma >>> 27);
  b = (mb << 11) | (mb >>> 21);
  c = (mc << 17) | (mc >>> 15);
  d = (md << 23) | (md >>> 9);
  length++;
}

/** Final avalanche of a 32-bit lane: every input bit flips each output bit with odds near 1/2. */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Starts a hash; the module holds one at a time (the plan is synchronous). */
export function hashStart(): void {
  a = 0x9e3779b9;
  b = 0x243f6a88;
  c = 0xb7e15162;
  d = 0x510e527f;
  length = 0;
}

export function hashText(text: string): void {
  for (let i = 0; i < text.length; i++) unit(text.charCodeAt(i));
  // A separator no UTF-16 unit equals, so ("ab", "c") and ("a", "bc") differ.
  unit(0x10000);
}

/** A non-negative integer below 2^32. */
export function hashNumber(value: number): void {
  unit(0x20000 + (value >>> 16));
  unit(0x30000 + (value & 0xffff));
}

const HEX_CODES = [...'0123456789abcdef'].map((char) => char.charCodeAt(0));
const DASH = '-'.charCodeAt(0);
const codes: number[] = new Array<number>(36).fill(DASH);

function writeHex(word: number, at: readonly number[]): void {
  for (let i = 0; i < 8; i++) codes[at[i]!] = HEX_CODES[(word >>> (28 - 4 * i)) & 0xf]!;
}

// Positions of the 32 hex digits in the 36 characters of a uuid, eight per 32-bit word.
const POSITIONS = [
  [0, 1, 2, 3, 4, 5, 6, 7],
  [9, 10, 11, 12, 14, 15, 16, 17],
  [19, 20, 21, 22, 24, 25, 26, 27],
  [28, 29, 30, 31, 32, 33, 34, 35],
];

/** The version-8 (RFC 9562: custom) uuid of what was fed since hashStart. */
export function hashUuidEnd(): string {
  const mixed = (a + b + c + d + length) | 0;
  const hb = avalanche((b + mixed) | 0);
  const hc = avalanche((c + mixed) | 0);
  const hd = avalanche((d + mixed) | 0);
  const ha = avalanche(mixed);
  writeHex((ha + hb + hc + hd) >>> 0, POSITIONS[0]!);
  writeHex(((((hb + ha) >>> 0) & 0xffff0fff) | 0x00008000) >>> 0, POSITIONS[1]!);
  writeHex(((((hc + ha) >>> 0) & 0x3fffffff) | 0x80000000) >>> 0, POSITIONS[2]!);
  writeHex((hd + ha) >>> 0, POSITIONS[3]!);
  return String.fromCharCode.apply(null, codes);
}

export function hashUuid(...parts: string[]): string {
  hashStart();
  for (const part of parts) hashText(part);
  return hashUuidEnd();
}
