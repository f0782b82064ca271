/** Fraction of the gold ids found among the first k retrieved ids (each retrieved entry may carry several ids). */
export function recallAtK(
  gold: readonly string[],
  retrieved: readonly (readonly string[])[],
  k: number,
): number {
  if (gold.length === 0) return 0;
  const found = new Set(retrieved.slice(0, k).flat());
  return gold.filter((id) => found.has(id)).length / gold.length;
}

/** Running means of recall@k for each k. */
export class RecallTable {
  private readonly sums: Map<number, number>;
  count = 0;

  constructor(readonly ks: readonly number[]) {
    this.sums = new Map(ks.map((k) => [k, 0]));
  }

  add(gold: readonly string[], retrieved: readonly (readonly string[])[]): void {
    this.count += 1;
    for (const k of this.ks) this.sums.set(k, this.sums.get(k)! + recallAtK(gold, retrieved, k));
  }

  /** `{ "<k>": mean recall }`, 4 decimals. */
  means(): Record<string, number> {
    return Object.fromEntries(
      this.ks.map((k) => [
        String(k),
        this.count === 0 ? 0 : Math.round((this.sums.get(k)! / this.count) * 1e4) / 1e4,
      ]),
    );
  }
}
