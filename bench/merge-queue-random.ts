// Seeded randomness for the merge-queue benchmarks and simulation: the same seed gives the same
// queue, the same arrivals and the same CI, so runs can be compared and repeated.

/** A uniform generator in [0, 1) from a 32-bit seed (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws ranks 0..n-1 with P(k) proportional to 1 / (k + 1)^exponent. */
export function zipfSampler(n: number, exponent: number, random: () => number): () => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 1; k <= n; k++) {
    total += 1 / k ** exponent;
    cumulative.push(total);
  }
  return () => {
    const target = random() * total;
    let low = 0;
    let high = n - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

/** An exponential draw with this mean (the gaps of a Poisson process). */
export function exponential(mean: number, random: () => number): number {
  return -Math.log(1 - random()) * mean;
}
