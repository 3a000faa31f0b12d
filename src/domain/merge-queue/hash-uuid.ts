// A uuid derived from a text, fast enough to name ten thousand proposed batches in a re-plan
// (node:crypto's SHA-1 costs about 5 µs a call here; this is a few hundred nanoseconds). Not a
// cryptographic hash: the ids only need to be stable and not collide by accident.

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

/** Final avalanche of a 32-bit lane: every input bit flips each output bit with odds near 1/2. */
function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Four 32-bit lanes, each a multiply-rotate hash of its own; lanes mixed at the end. */
function hash128(text: string): [number, number, number, number] {
  let a = 0x9e3779b9 ^ text.length;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = 0x510e527f;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    a = rotl(Math.imul(a ^ k, 0x01000193), 5);
    b = rotl(Math.imul(b ^ k, 0x5bd1e995), 11);
    c = rotl(Math.imul(c ^ k, 0x1b873593), 17);
    d = rotl(Math.imul(d ^ k, 0xcc9e2d51), 23);
  }
  a = (a + b + c + d) | 0;
  b = (b + a) | 0;
  c = (c + a) | 0;
  d = (d + a) | 0;
  a = avalanche(a);
  b = avalanche(b);
  c = avalanche(c);
  d = avalanche(d);
  return [(a + b + c + d) >>> 0, (b + a) >>> 0, (c + a) >>> 0, (d + a) >>> 0];
}

const hex8 = (n: number): string => n.toString(16).padStart(8, '0');

/** A version-8 (RFC 9562 custom) uuid made from the text's 128-bit hash. */
export function hashUuid(text: string): string {
  const [a, b, c, d] = hash128(text);
  const versioned = ((b & 0xffff0fff) | 0x00008000) >>> 0;
  const variant = ((c & 0x3fffffff) | 0x80000000) >>> 0;
  const h = hex8(a) + hex8(versioned) + hex8(variant) + hex8(d);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
