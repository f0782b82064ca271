/**
 * A small seeded pseudo-random generator (mulberry32): uniform numbers in [0, 1) that repeat for
 * a seed, run to run and machine to machine. For baselines and synthetic data that must be
 * reproducible (the random gate of `mem eval gate`, the benches' corpora); never for secrets.
 */
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
