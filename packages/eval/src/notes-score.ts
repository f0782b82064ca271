import type { GoldFile, Keyword } from './gold-set.js';
import { round4 } from './metrics.js';

/*
 * The pure half of `mem eval notes`: given the lines of each note, how many gold findings a
 * line states (in the note of the finding's question, or in any note) and how many lines are
 * noise. No I/O; the runner (notes-eval.ts) produces the lines.
 */

export interface NoisePattern {
  id: string;
  regex: RegExp;
}

/** Noise patterns compiled case-insensitively (the gold set checked they compile). */
export function compileNoise(patterns: readonly { id: string; pattern: string }[]): NoisePattern[] {
  return patterns.map((p) => ({ id: p.id, regex: new RegExp(p.pattern, 'iu') }));
}

/** Whether `line` states a finding: it contains every keyword (one alternative of each group), ignoring case and runs of space. */
export function lineMatches(
  line: string,
  keywords: readonly (Keyword | readonly string[])[],
): boolean {
  const haystack = fold(line);
  return keywords.every((k) =>
    (typeof k === 'string' ? [k] : k).some((alternative) => haystack.includes(fold(alternative))),
  );
}

function fold(s: string): string {
  return s.toLowerCase().replace(/\s+/g, ' ');
}

/** How many lines match at least one noise pattern, and how many each pattern matched. */
export function noiseCount(
  lines: readonly string[],
  patterns: readonly NoisePattern[],
): { noisy: number; by_pattern: Record<string, number> } {
  const byPattern: Record<string, number> = {};
  let noisy = 0;
  for (const line of lines) {
    const hits = patterns.filter((p) => p.regex.test(line));
    if (hits.length > 0) noisy += 1;
    for (const hit of hits) byPattern[hit.id] = (byPattern[hit.id] ?? 0) + 1;
  }
  return { noisy, by_pattern: byPattern };
}

export interface QueryNoteScore {
  findings: number;
  in_note: number;
  anywhere: number;
  lines: number;
  noise_lines: number;
}

export interface FileNotesScore extends Totals {
  path: string;
  split: GoldFile['split'];
  /** Notes that have at least one line. */
  notes: number;
  lines_per_note: number;
  per_query: Record<string, QueryNoteScore>;
  noise_by_pattern: Record<string, number>;
  /** Finding ids no line of their own note states. */
  missed_in_note: string[];
}

interface Totals {
  findings: number;
  in_note: number;
  anywhere: number;
  /** in_note / findings; null where there is nothing to recall. */
  recall_in_note: number | null;
  recall_anywhere: number | null;
  lines: number;
  noise_lines: number;
  /** noise_lines / lines; 0 where there are no lines. */
  noise_share: number;
}

/** One gold file scored against its notes: `notes` maps a question key (or `synthesis`) to its note's lines; a missing note has none. */
export function scoreFile(
  file: GoldFile,
  notes: Readonly<Record<string, readonly string[]>>,
  noise: readonly NoisePattern[],
): FileNotesScore {
  const keys = [...new Set([...Object.keys(file.findings), ...Object.keys(notes)])].sort();
  const everyLine = keys.flatMap((key) => notes[key] ?? []);
  const perQuery: Record<string, QueryNoteScore> = {};
  const missed: string[] = [];
  const byPattern: Record<string, number> = {};
  for (const key of keys) {
    const lines = notes[key] ?? [];
    const findings = file.findings[key] ?? [];
    const inNote = findings.filter((f) => lines.some((line) => lineMatches(line, f.keywords)));
    for (const f of findings) if (!inNote.includes(f)) missed.push(f.id);
    const counted = noiseCount(lines, noise);
    for (const [id, n] of Object.entries(counted.by_pattern))
      byPattern[id] = (byPattern[id] ?? 0) + n;
    perQuery[key] = {
      findings: findings.length,
      in_note: inNote.length,
      anywhere: findings.filter((f) => everyLine.some((line) => lineMatches(line, f.keywords)))
        .length,
      lines: lines.length,
      noise_lines: counted.noisy,
    };
  }
  const rows = Object.values(perQuery);
  const notesWithLines = rows.filter((r) => r.lines > 0).length;
  return {
    path: file.path,
    split: file.split,
    ...totals(rows),
    notes: notesWithLines,
    lines_per_note: notesWithLines === 0 ? 0 : round4(everyLine.length / notesWithLines),
    per_query: perQuery,
    noise_by_pattern: byPattern,
    missed_in_note: missed.sort(),
  };
}

export interface NotesSummary extends Totals {
  files: number;
  lines_per_note: number;
}

/** Files pooled: findings and lines summed over files (a micro average), so a large file weighs what it holds. */
export function summarize(files: readonly FileNotesScore[]): NotesSummary {
  const notes = files.reduce((n, f) => n + f.notes, 0);
  const sums = totals(files);
  return {
    files: files.length,
    ...sums,
    lines_per_note: notes === 0 ? 0 : round4(sums.lines / notes),
  };
}

/** A query's gate counts, as a file's runs report them (notes-eval.ts's NoteRun). */
export interface GateCounts {
  chunks_seen: number;
  chunks_used: number;
}

/** A query's gate counts summed over files, and the pooled rate. */
export interface PooledRate extends GateCounts {
  /** chunks_used / chunks_seen summed over files; 0 where no file saw a chunk. */
  update_rate: number;
}

/**
 * The update-rate per query pooled over files: chunks used and seen summed, then divided (a
 * micro average). A file of one chunk is 0 or 100 % by construction; pooled, it weighs one
 * chunk, so the "(0, 30 %] per query" is judged on what the gate did over the set.
 */
export function poolRates(
  files: readonly { runs: Readonly<Record<string, GateCounts>> }[],
  counts: (run: GateCounts) => boolean = () => true,
): Record<string, PooledRate> {
  const sums = new Map<string, GateCounts>();
  for (const file of files)
    for (const [key, run] of Object.entries(file.runs)) {
      if (!counts(run)) continue;
      const sum = sums.get(key) ?? { chunks_seen: 0, chunks_used: 0 };
      sums.set(key, {
        chunks_seen: sum.chunks_seen + run.chunks_seen,
        chunks_used: sum.chunks_used + run.chunks_used,
      });
    }
  return Object.fromEntries(
    [...sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, sum]) => [
        key,
        {
          ...sum,
          update_rate: sum.chunks_seen === 0 ? 0 : round4(sum.chunks_used / sum.chunks_seen),
        },
      ]),
  );
}

/**
 * The update-rate per query pooled over the files whose run of that query saw more than one
 * step. Why: a run of one step opens its gate on it or not (100 or 0 %), and a synthesis from an
 * empty memory always opens it (the first fill changes what a reader gets), so pooled over all
 * files the one-step runs set the rate; over these it is what the gate did after its first step.
 */
export function poolMultiStepRates(
  files: readonly { runs: Readonly<Record<string, GateCounts>> }[],
): Record<string, PooledRate> {
  return poolRates(files, (run) => run.chunks_seen > 1);
}

function totals(
  rows: readonly Pick<
    QueryNoteScore,
    'findings' | 'in_note' | 'anywhere' | 'lines' | 'noise_lines'
  >[],
): Totals {
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const findings = sum((r) => r.findings);
  const inNote = sum((r) => r.in_note);
  const anywhere = sum((r) => r.anywhere);
  const lines = sum((r) => r.lines);
  const noiseLines = sum((r) => r.noise_lines);
  return {
    findings,
    in_note: inNote,
    anywhere,
    recall_in_note: findings === 0 ? null : round4(inNote / findings),
    recall_anywhere: findings === 0 ? null : round4(anywhere / findings),
    lines,
    noise_lines: noiseLines,
    noise_share: lines === 0 ? 0 : round4(noiseLines / lines),
  };
}
