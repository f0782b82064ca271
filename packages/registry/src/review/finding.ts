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

/**
 * Duplicate pairs joined where they share a subject, one finding per group naming every subject
 * (sorted) and explaining each pair. Trigger: three copies of one statement made three pairwise
 * findings, each to be decided alone. Why: a reviewer folds the copies at once, and a supersede
 * already takes every live subject to the newest. Outcome: one finding; a group is connected
 * pairs, so two subjects in it may be duplicates only through a third (each pair is listed).
 * A lone pair is returned as it was, its id unchanged. `noun` names the subjects (lines, items).
 */
export function joinDuplicatePairs(
  pairs: readonly Finding[],
  noun: string,
): { finding: Finding; pairs: Finding[] }[] {
  const parent = new Map<string, string>();
  const root = (x: string): string => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  for (const pair of pairs) {
    const [a, ...rest] = pair.subjects.map(root);
    for (const other of rest) if (other !== a) parent.set(other, a!);
    if (!parent.has(a!)) parent.set(a!, a!);
  }
  const groups = new Map<string, Finding[]>();
  for (const pair of pairs) {
    const key = root(pair.subjects[0]!);
    groups.set(key, [...(groups.get(key) ?? []), pair]);
  }
  return [...groups.values()]
    .map((joined) => {
      if (joined.length === 1) return { finding: joined[0]!, pairs: joined };
      const subjects = [...new Set(joined.flatMap((p) => p.subjects))].sort();
      const explanation = `${subjects.length} ${noun} say the same statement: ${joined.map((p) => p.explanation).join('; ')}`;
      return { finding: { kind: joined[0]!.kind, subjects, explanation }, pairs: joined };
    })
    .sort((a, b) => a.finding.subjects[0]!.localeCompare(b.finding.subjects[0]!));
}
