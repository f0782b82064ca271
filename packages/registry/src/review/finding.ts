import type { z } from 'zod';
import type { reviewKindField } from '@mem/core';

/** A live line a detector reads: its content sha and text (the text never leaves the finding's explanation rules). */
export interface LiveLine {
  sha256: string;
  text: string;
  /** The seq of the event that first stated it (absent on hand-made lines): which of two is newer. */
  seq?: number;
  /** The shas it rests on (evidence for an L1 line); absent on hand-made lines. */
  parents?: string[];
  /** The memory that states it now, and its note (`L1:<query>`, `L2:synthesis`); absent off a memory. */
  memory?: string;
  note?: string;
}

/** What a detector proposes: a `review_opened` payload before its id is stamped. */
export interface Finding {
  kind: z.infer<typeof reviewKindField>;
  /** Sorted, distinct. */
  subjects: string[];
  explanation: string;
}

/** Every unordered pair of `lines`, in sha order, so a detector's output never depends on input order. */
export function linePairs(lines: readonly LiveLine[]): [LiveLine, LiveLine][] {
  const sorted = [...lines].sort((a, b) => a.sha256.localeCompare(b.sha256));
  const pairs: [LiveLine, LiveLine][] = [];
  for (let i = 0; i < sorted.length; i++)
    for (let j = i + 1; j < sorted.length; j++) pairs.push([sorted[i]!, sorted[j]!]);
  return pairs;
}

export const short = (sha: string) => sha.slice(0, 8);
