/** Confusion counts of a binary decision against labels. */
export class Confusion {
  tp = 0;
  fp = 0;
  fn = 0;
  tn = 0;

  add(predicted: boolean, actual: boolean): void {
    if (predicted && actual) this.tp += 1;
    else if (predicted) this.fp += 1;
    else if (actual) this.fn += 1;
    else this.tn += 1;
  }

  get precision(): number {
    return this.tp + this.fp === 0 ? 0 : this.tp / (this.tp + this.fp);
  }

  get recall(): number {
    return this.tp + this.fn === 0 ? 0 : this.tp / (this.tp + this.fn);
  }

  get f1(): number {
    const p = this.precision;
    const r = this.recall;
    return p + r === 0 ? 0 : (2 * p * r) / (p + r);
  }

  get rate(): number {
    const total = this.tp + this.fp + this.fn + this.tn;
    return total === 0 ? 0 : (this.tp + this.fp) / total;
  }
}

/** Rounds a fraction for reports (4 decimals). */
export function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}

/** The p-th percentile (0..100) of samples, nearest rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
