import {
  contentSha256,
  copiedText,
  lineTokens,
  nearDuplicateTokens,
  splitMemoryLines,
  synthesisPrefix,
} from '@mem/core';
import { RETIRED_MARK, RETIRED_ROLE, type LoopStep } from '@mem/extractor';

/** One standing query's current L1 memory, as the synthesis reads it. */
export interface SynthesisInput {
  queryId: string;
  /** The L1 memory's content sha: what an L2 line copied out of it rests on. */
  sha256: string;
  text: string;
}

/** L1 lines a synthesis step reads: enough to judge together, few enough that most steps add nothing. */
export const SYNTHESIS_BATCH_LINES = 6;

interface Candidate {
  /** `[query-id] <L1 line>`: the L2 line it becomes. */
  text: string;
  tokens: Set<string>;
  parents: string[];
  queries: Set<string>;
  score: number;
  order: number;
}

export interface SynthesisBatching {
  /** Lines per step after the first. */
  batchLines?: number;
  /**
   * The L2 memory's budget and the tokenizer's count: the first step reads the strongest lines
   * the budget holds, passing over one too long for the room left (never fewer than
   * `batchLines`; firstBatch). Trigger: a synthesis
   * starts from an empty memory. Why: filling it six lines a step made every step an update
   * until it was full, so the share of steps that update grew as the L1 notes got shorter and
   * cleaner (a project with 78 L1 lines updated on 4 of 13 steps). Outcome: one step fills
   * the memory, the later ones update only where a line outweighs what it holds.
   */
  fill?: { tokens: number; count: (text: string) => number };
  /**
   * The L2 memory this synthesis continues from (its text; empty or absent at the start). A line
   * of it that no current L1 line says any more (near-duplicate) is offered as `retired` ahead
   * of the first batch's lines, in its step (retiredLines).
   */
  held?: string;
  /**
   * The synthesis chunk shas the log holds (the steps the loop skips): a first step that retires
   * a line is keyed by them where it would be skipped (firstStepSha).
   */
  seen?: ReadonlySet<string>;
  /** An L1 line a tombstone refuses: never a candidate, so its L2 copy is retired too. */
  refuses?: (line: string) => boolean;
  /**
   * The lines the L2 retired, one entry per retirement, oldest first (retirements): a batch the
   * log has seen that holds one of them, not held now, is keyed by them (returningSha).
   */
  retired?: readonly string[];
}

/** One L2 memory of the project's chain, with the L1 lines the notes held when it was written. */
export interface L2Version {
  text: string;
  /** The current L1 lines then, each as a synthesis candidate reads (`[query-id] line`). */
  l1: readonly string[];
}

/**
 * The lines the L2 retired along its chain (oldest first), one entry per retirement: a line one
 * version held, the next did not, and no L1 note held when the next was written. A line the
 * L2 let go for room (a stronger line took its place) is no retirement: its evidence was there.
 */
export function retirements(chain: readonly L2Version[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < chain.length; i++) {
    const next = splitMemoryLines(chain[i]!.text).map(lineTokens);
    const l1 = chain[i]!.l1.map(lineTokens);
    for (const line of splitMemoryLines(chain[i - 1]!.text)) {
      const tokens = lineTokens(line);
      if (next.some((t) => nearDuplicateTokens(t, tokens))) continue;
      if (l1.some((t) => nearDuplicateTokens(t, tokens))) continue;
      out.push(line);
    }
  }
  return out;
}

/**
 * The L2 pass's chunk stream (pure): every line of the current L1 memories, near-duplicates
 * across notes folded into one candidate resting on each memory that said it (the first
 * note's wording, in the YAML's order), offered strongest first — by `priority` over the whole set (synthesisPriority), the measure
 * the controller keeps lines by, then a line more notes agree on — in batches of
 * SYNTHESIS_BATCH_LINES lines. Strongest first is why most steps add nothing: once the memory
 * is full, what follows is weaker than what it holds. A batch's sha is of its text (the first
 * one's keyed by the L2 it meets where it retires a line: firstStepSha), so an unchanged
 * project offers only batches an earlier synthesis has seen.
 */
export function synthesisSteps(
  memories: readonly SynthesisInput[],
  priority: (lines: readonly string[]) => readonly number[],
  batching: SynthesisBatching = {},
): LoopStep[] {
  const batchLines = batching.batchLines ?? SYNTHESIS_BATCH_LINES;
  const candidates: Candidate[] = [];
  for (const memory of memories) {
    for (const line of splitMemoryLines(memory.text)) {
      if (batching.refuses?.(copiedText(line))) continue;
      // A line that is already a synthesis copy keeps its own prefix (never `[a] [b] …`).
      const text = synthesisPrefix(line) === '' ? `[${memory.queryId}] ${line}` : line;
      const tokens = lineTokens(text);
      const same = candidates.find((c) => nearDuplicateTokens(c.tokens, tokens));
      if (same) {
        if (!same.parents.includes(memory.sha256)) same.parents.push(memory.sha256);
        same.queries.add(memory.queryId);
        continue;
      }
      candidates.push({
        text,
        tokens,
        parents: [memory.sha256],
        queries: new Set([memory.queryId]),
        score: 0,
        order: candidates.length,
      });
    }
  }
  const scores = priority(candidates.map((c) => c.text));
  for (const [i, candidate] of candidates.entries()) candidate.score = scores[i]!;
  candidates.sort(
    (a, b) => b.score - a.score || b.queries.size - a.queries.size || a.order - b.order,
  );
  const steps: LoopStep[] = [];
  const heldLines = splitMemoryLines(batching.held ?? '');
  const retired = retiredLines(heldLines, candidates);
  const first = firstBatch(candidates, batchLines, batching.fill);
  const rest = candidates.filter((c) => !first.includes(c));
  const batches = [first];
  for (let i = 0; i < rest.length; i += batchLines) batches.push(rest.slice(i, i + batchLines));
  for (const [i, batch] of batches.entries()) {
    if (batch.length === 0) continue;
    const lines = batch.map((c) => `- ${c.text}`).join('\n');
    const records = batch.map((c) => ({ role: 'memory', text: c.text }));
    const withRetired = i === 0 && retired.length > 0;
    const text = withRetired
      ? `${retired.map((line) => `- ${RETIRED_MARK} ${line}`).join('\n')}\n${lines}`
      : lines;
    const queries = [...new Set(batch.flatMap((c) => [...c.queries]))].sort();
    steps.push({
      text,
      records: withRetired
        ? [...retired.map((line) => ({ role: RETIRED_ROLE, text: line })), ...records]
        : records,
      sha256: returningSha(
        i === 0 ? firstStepSha(lines, text, retired, batching) : contentSha256(text),
        text,
        batch,
        heldLines,
        batching,
      ),
      source: `L1:${queries.join(',')}`,
      span: null,
      lineParents: new Map(batch.map((c) => [c.text, [...c.parents]])),
      parents: [...new Set(batch.flatMap((c) => c.parents))],
    });
  }
  return steps;
}

/**
 * The held L2 lines no current L1 line says (none when every held line is still said, or when no
 * L1 line is left to synthesise from): offered as `retired` ahead of the first batch's lines.
 *
 * Trigger: the L2 kept a line after every L1 note had evicted it (the demo ingested Claude
 * sessions first, then the pi ones: 8 of the 24 L2 lines were lines no L1 note held any more,
 * "None of these tools are currently in the project" among them), and a line a person forgot
 * stayed in the L2 text until some unrelated update rewrote it. Why: the synthesis only offered
 * L1 lines; a held line was weighed against them but never told it had lost its evidence, so it
 * kept its place by incumbency and the room a better current line needed. Outcome: the L2 is a
 * bounded summary of the current L1 notes — what leaves them leaves it. In the first batch's
 * step, not one of its own: a step that leaves no line is no update (the loop never writes an
 * empty memory, so one retiring every held line kept them all), and a retirement followed by
 * the refill was two writes for one change a reader sees.
 */
function retiredLines(held: readonly string[], candidates: readonly Candidate[]): string[] {
  if (candidates.length === 0) return [];
  return held.filter((line) => {
    const tokens = lineTokens(line);
    return !candidates.some((c) => nearDuplicateTokens(c.tokens, tokens));
  });
}

/**
 * The first step's sha: its batch's own (the sha of its lines) unless the step retires a held
 * line and the log has seen that sha; then the sha of its text salted with the L2 it starts from
 * and the count of steps the synthesis has read.
 *
 * Trigger: the loop skips a step whose sha it has seen, and a step's sha was of its text alone:
 * an open question answered (retired), asked again (taken back), answered again offered the
 * same retiring text, so the answered question stayed in the L2 for good. Why: whether a step
 * changes the L2 depends on the L2 it meets, not on its text alone. Outcome: a retiring step is
 * read once per L2 it meets (the read count tells a recurring L2 from the first time it was
 * met); it leaves the L2 without the retired lines, so the synthesis after it offers the batch
 * alone, whose own sha the log has seen, and an unchanged project writes nothing.
 *
 * A line that left the notes and came back into a batch the log has seen unchanged ("- A\n- B"
 * read, then "- B", then "- A\n- B" again) is keyed by returningSha.
 */
function firstStepSha(
  lines: string,
  text: string,
  retired: readonly string[],
  batching: SynthesisBatching,
): string {
  const own = contentSha256(lines);
  const seen = batching.seen ?? new Set<string>();
  if (retired.length === 0 || !seen.has(own)) return own;
  return contentSha256(`${text}\n${contentSha256(batching.held ?? '')}\n${seen.size}`);
}

/**
 * A step's sha, salted when it would be skipped but holds a line that came back: a line of the
 * batch the L2 retired (retirements) and does not hold now, with how many times it was retired.
 *
 * Trigger: a line left the notes, the L2 retired it, and it came back into a batch the log had
 * seen unchanged ("- A\n- B" read, then "- B" retiring A, then "- A\n- B" again): the step was
 * skipped by its sha, so the line stayed out of the L2 until that batch's text changed. Why: a
 * step's text alone does not say whether the L2 it meets lacks its lines; keying every batch by
 * the L2 re-read, after any update, batches whose lines the L2 had no room for. Outcome: the
 * key changes only when the L2 retires a line of the batch (a write), so the returning batch is
 * read once per retirement; a line let go for room, or never held, keeps the batch's own sha.
 */
function returningSha(
  sha: string,
  text: string,
  batch: readonly Candidate[],
  held: readonly string[],
  batching: SynthesisBatching,
): string {
  const retired = batching.retired ?? [];
  if (retired.length === 0 || !(batching.seen ?? new Set<string>()).has(sha)) return sha;
  const heldTokens = held.map(lineTokens);
  const retiredTokens = retired.map(lineTokens);
  const returning = batch.flatMap((c) => {
    if (heldTokens.some((t) => nearDuplicateTokens(t, c.tokens))) return [];
    const times = retiredTokens.filter((t) => nearDuplicateTokens(t, c.tokens)).length;
    return times > 0 ? [`${times} ${c.text}`] : [];
  });
  if (returning.length === 0) return sha;
  return contentSha256(`${text}\n${returning.join('\n')}`);
}

/**
 * The candidates the first step reads: every one, strongest first, that the budget still holds
 * — a line too long for the room left is passed over, not an end to the fill — and never fewer
 * than `batchLines` (the strongest ones).
 *
 * Trigger: the fill stopped at the first line that did not fit, so the room that line left was
 * taken by whichever short lines a later batch happened to hold (the demo's claude sessions
 * alone: step 3 of 7 added three weaker lines and nothing else, an update no stronger line
 * caused). Why: an L2 update is a change in what the ranking keeps — a line that outweighs one
 * the memory holds — not the arrival of a line weak enough to fit the slack. Outcome: the first
 * step keeps what the greedy fill of the ranking keeps, so no later line of the same ranking
 * fits the room left (each was passed over when there was at least as much), and a later step
 * updates only where a line outweighs one held.
 */
function firstBatch(
  candidates: readonly Candidate[],
  batchLines: number,
  fill: SynthesisBatching['fill'],
): Candidate[] {
  if (fill === undefined) return candidates.slice(0, batchLines);
  const taken: Candidate[] = [];
  let text = '';
  for (const candidate of candidates) {
    const next = `${text}${text === '' ? '' : '\n'}- ${candidate.text}`;
    if (fill.count(next) > fill.tokens) continue;
    text = next;
    taken.push(candidate);
  }
  if (taken.length >= batchLines) return taken;
  return candidates.slice(0, batchLines);
}
