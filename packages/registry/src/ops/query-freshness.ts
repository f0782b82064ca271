import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { freshnessOf, heldBack, NEXT_ACTION, type NextAction, type SourceCheck } from '@mem/core';
import type { CitedChunk, StandingQueries } from '@mem/ingest';
import { citedKey } from '@mem/ingest/definitions';
import type { ItemStore } from '@mem/projector-sqlite';
import { citationsOfPage, lineKeyOf, type FoldedHit } from '@mem/query';
import type { RegistryContext } from '../context.js';
import { loadIngest, type Ingest } from '../ingest-module.js';
import { groundingCachePath } from './grounding-cache-path.js';
import { standingQueriesHere } from './standing-queries-here.js';

/**
 * A memory line's verbs: core's NEXT_ACTION, `correct` for both reasons. A changed line's hint
 * names `mem confirm` too: a confirmation records what its cited spans read as then, and holds
 * the verdict off while they still read so (confirmedFresh).
 */
const LINE_NEXT_ACTION: Record<LineFreshnessWarning['reason'], NextAction> = {
  source_changed: NEXT_ACTION.source_changed,
  source_unreadable: NEXT_ACTION.source_unreadable,
};

/** At most this many line warnings ride on one answer; `freshness_warnings_left_out` counts the rest. */
export const MAX_LINE_WARNINGS = 20;

/** A memory line recall did not deliver silently: its cited evidence no longer reads the same. */
export const lineFreshnessWarning = z.object({
  sha256: z.string(),
  project: z.string(),
  level: z.enum(['L1', 'L2']),
  /** `stale`: a cited session was rewritten in the cited span; `unknown`: it is gone or unreadable. */
  state: z.enum(['stale', 'unknown']),
  reason: z.enum(['source_changed', 'source_unreadable']),
  label: z.string(),
  /** The line's text, so a reader held back from it knows what was held back. */
  text: z.string(),
  /** The record sources (`claude:<session>`) whose cited chunks no longer read as ingested. */
  sources: z.array(z.string()),
  /** True only under include_stale: the line is in the answer despite the verdict. */
  delivered: z.boolean(),
  /** The correction verb (core's NEXT_ACTION): `correct`, a changed line and an unreadable one alike. */
  next_action: z.enum(['confirm', 'correct', 'retire']),
  /** How: confirm it if it still holds (a changed source), re-ingest, or forget the line. */
  hint: z.string(),
});
export type LineFreshnessWarning = z.infer<typeof lineFreshnessWarning>;

/** A memory line as recall and tool context hand it over. */
export interface JudgedLine {
  project: string;
  level: string;
  sha256: string;
  text: string;
  /**
   * The line's citations as the caller already read them (any mode but `none`: the same walk,
   * only the text differs); absent, they are read here.
   */
  cited?: readonly Cited[];
}

/** A citation as freshness reads it. */
type Cited = { level: string; sha256: string };

export interface LineVerdicts {
  /** Warnings keyed `project\0level\0sha`: each line recall must not deliver silently. */
  warnings: Map<string, LineFreshnessWarning>;
}

export const lineKey = (l: Pick<JudgedLine, 'project' | 'level' | 'sha256'>) => lineKeyOf(l);

/**
 * Freshness of memory lines on a page (issue 13 §4): a line's input is the digests of the L0
 * chunks it was drawn from (the store's chunk span and run chunk size); the verdict is core's.
 * Bounded by the page: only the cited sources of these lines are stat'ed, and only a moved one
 * is re-read, in the cited span (checkCitedSources). A changed chunk makes the line stale, a
 * gone one unknown. A project with no standing queries on this machine is not judged: its
 * transcripts were posted, never on this disk.
 */
export async function judgeLines(
  ctx: RegistryContext,
  items: ItemStore,
  lines: readonly JudgedLine[],
  delivered: boolean,
): Promise<LineVerdicts> {
  const memory = lines.filter((l) => l.level === 'L1' || l.level === 'L2');
  const warnings = new Map<string, LineFreshnessWarning>();
  const byProject = new Map<string, JudgedLine[]>();
  for (const line of memory)
    byProject.set(line.project, [...(byProject.get(line.project) ?? []), line]);
  for (const [project, own] of [...byProject].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const queriesDir = ctx.engine.paths.queriesDir;
    if (!existsSync(join(queriesDir, `${project}.yaml`))) continue;
    const chunks = citedChunksOfPage(items, project, own);
    const cited = new Map(own.map((l, i) => [l, chunks[i]!]));
    const all = chunks.flat();
    if (all.length === 0) continue;
    const ingest = await loadIngest();
    const config = standingQueriesHere(ctx, project, ingest.loadStandingQueries);
    if (config === null) continue;
    const grounding = await ingest.checkCitedSources(config, all, {
      cachePath: groundingCachePath(ctx, project),
    });
    const confirmed = await confirmedFresh(
      ingest,
      config,
      items,
      project,
      [...cited].filter(([, chunks]) =>
        chunks.some((c) => grounding.get(citedKey(c)) === 'changed'),
      ),
      grounding,
      groundingCachePath(ctx, project),
    );
    for (const [line, chunks] of cited) {
      const states = chunks.map((c) => ({ chunk: c, state: grounding.get(citedKey(c)) }));
      const changed = states.filter(
        (s) => s.state === 'changed' && !confirmed.has(`${line.sha256}\0${citedKey(s.chunk)}`),
      );
      const gone = states.filter((s) => s.state === 'gone');
      const source: SourceCheck | null =
        changed.length > 0 ? 'changed' : gone.length > 0 ? 'unreadable' : null;
      // A line has no clock-bound input: the epoch stands for "no deadline passed".
      const verdict = freshnessOf({ source }, new Date(0));
      if (!heldBack(verdict) || verdict.reason === null) continue;
      const reason = verdict.reason as LineFreshnessWarning['reason'];
      warnings.set(lineKey(line), {
        sha256: line.sha256,
        project,
        level: line.level as LineFreshnessWarning['level'],
        state: verdict.state as LineFreshnessWarning['state'],
        reason,
        label: verdict.label,
        text: line.text,
        sources: [
          ...new Set((changed.length > 0 ? changed : gone).map((s) => s.chunk.source)),
        ].sort(),
        delivered,
        next_action: LINE_NEXT_ACTION[reason],
        hint: lineHint(reason, line.sha256.slice(0, 8), project),
      });
    }
  }
  return { warnings };
}

/**
 * The changed chunks of these lines that a person confirmed while their spans read as they do
 * now, as `line sha \0 citedKey`: recall does not count them as changed (issue 13 §4). Only
 * lines with a changed chunk and a confirmation of every such chunk re-read their spans.
 */
async function confirmedFresh(
  ingest: Ingest,
  config: StandingQueries,
  items: ItemStore,
  project: string,
  lines: readonly (readonly [JudgedLine, CitedChunk[]])[],
  grounding: ReadonlyMap<string, string>,
  cachePath: string,
): Promise<Set<string>> {
  const out = new Set<string>();
  if (lines.length === 0) return out;
  const rows = items.lineConfirmations(
    project,
    lines.map(([l]) => l.sha256),
  );
  if (rows.length === 0) return out;
  const digests = new Map(rows.map((r) => [`${r.line_sha}\0${r.chunk_sha}`, r.digest]));
  const asked = lines.flatMap(([line, chunks]) =>
    chunks.filter(
      (c) => grounding.get(citedKey(c)) === 'changed' && digests.has(`${line.sha256}\0${c.sha256}`),
    ),
  );
  if (asked.length === 0) return out;
  const now = await ingest.citedSpanDigests(config, asked, { cachePath });
  for (const [line, chunks] of lines)
    for (const c of chunks) {
      const then = digests.get(`${line.sha256}\0${c.sha256}`);
      if (then !== undefined && now.get(citedKey(c)) === then)
        out.add(`${line.sha256}\0${citedKey(c)}`);
    }
  return out;
}

/**
 * What settles a held-back line, as a command that does. A changed source: `mem confirm` if
 * the line still holds (it records what the cited spans read as now; a later change holds it
 * back again), a re-ingest, or forget. A gone one cannot be confirmed against anything.
 */
function lineHint(reason: LineFreshnessWarning['reason'], ref: string, project: string): string {
  const forget = `mem forget ${ref} --project ${project}`;
  return reason === 'source_changed'
    ? `the cited session was rewritten: if the line still holds, mem confirm ${ref} --project ${project}; else re-ingest (mem ingest --project ${project}) to draw lines from what it says now, then ${forget}`
    : `the cited session is gone: ${forget}, or mem query --include-stale to read it anyway`;
}

/**
 * The `cited` of a line's confirmation: each cited L0 chunk's sha and what its span reads as
 * now. Empty when the project is not judged on this machine or the spans cannot be read.
 */
export async function confirmationDigests(
  ctx: RegistryContext,
  items: ItemStore,
  project: string,
  line: Pick<JudgedLine, 'level' | 'sha256' | 'text'>,
): Promise<{ chunk: string; digest: string }[]> {
  if (!existsSync(join(ctx.engine.paths.queriesDir, `${project}.yaml`))) return [];
  const [chunks] = citedChunksOfPage(items, project, [{ ...line, project }]);
  if (chunks === undefined || chunks.length === 0) return [];
  const ingest = await loadIngest();
  const config = standingQueriesHere(ctx, project, ingest.loadStandingQueries);
  if (config === null) return [];
  const now = await ingest.citedSpanDigests(config, chunks);
  return chunks
    .flatMap((c) => {
      const digest = now.get(citedKey(c));
      return digest === undefined ? [] : [{ chunk: c.sha256, digest }];
    })
    .sort((a, b) => (a.chunk < b.chunk ? -1 : 1));
}

/** The line the CLI prints for a warning, under the results. */
export function lineWarningLine(w: LineFreshnessWarning): string {
  return `${w.delivered ? 'delivered' : 'held back'} ${w.level} ${w.sha256.slice(0, 12)}: ${w.state} (${w.reason}: ${w.sources.join(', ')}; next: ${w.next_action} — ${w.hint})`;
}

/** The page's warnings, bounded: the first MAX_LINE_WARNINGS in page order, and how many more. */
export function boundedWarnings(
  lines: readonly JudgedLine[],
  verdicts: LineVerdicts,
): { freshness_warnings: LineFreshnessWarning[]; freshness_warnings_left_out?: number } {
  const all = lines.flatMap((l) => {
    const w = verdicts.warnings.get(lineKey(l));
    return w ? [w] : [];
  });
  const unique = [...new Map(all.map((w) => [lineKey(w), w])).values()];
  return {
    freshness_warnings: unique.slice(0, MAX_LINE_WARNINGS),
    ...(unique.length > MAX_LINE_WARNINGS
      ? { freshness_warnings_left_out: unique.length - MAX_LINE_WARNINGS }
      : {}),
  };
}

/**
 * A recall page judged: held-back lines leave `results` unless include_stale; the warnings
 * name them either way, in page order, bounded. The lines folded into a result are judged
 * too (each says what its result says, but rests on its own evidence): a stale one keeps its
 * verdict in `freshness` and is named among the warnings, right after its result, so a stale
 * line never hides silently behind a fresh one.
 */
export async function freshPage<
  Hit extends JudgedLine & { folded?: readonly FoldedHit[]; parents: readonly Cited[] },
>(
  ctx: RegistryContext,
  items: ItemStore,
  results: readonly Hit[],
  includeStale: boolean,
  /** The results' `parents` are their citations (the answer's mode is not `none`): not read again. */
  citedOnPage: boolean,
): Promise<{
  results: (Omit<Hit, 'folded'> & { folded?: JudgedFolded[] })[];
  freshness_warnings: LineFreshnessWarning[];
  freshness_warnings_left_out?: number;
}> {
  const judged = results.flatMap((h) => [
    citedOnPage ? { ...h, cited: h.parents } : h,
    ...(h.folded ?? []).filter((f) => f.kind === 'line'),
  ]);
  const verdicts = await judgeLines(ctx, items, judged, includeStale);
  const kept = includeStale
    ? [...results]
    : results.filter((h) => !verdicts.warnings.has(lineKey(h)));
  return {
    results: kept.map(({ folded, ...hit }) =>
      folded === undefined
        ? hit
        : {
            ...hit,
            folded: folded.map((f) => ({
              ...f,
              freshness:
                f.kind === 'line' ? (verdicts.warnings.get(lineKey(f))?.state ?? null) : null,
            })),
          },
    ),
    ...boundedWarnings(judged, verdicts),
  };
}

/** A folded hit with its verdict: a line's `stale` or `unknown`, else null (fresh, or an item). */
export type JudgedFolded = FoldedHit & { freshness: LineFreshnessWarning['state'] | null };

/** Folded hits of an answer that is not judged (as of a past seq): no verdict. */
export function unjudgedFolded<Hit extends { folded?: readonly FoldedHit[] }>(
  results: readonly Hit[],
): (Omit<Hit, 'folded'> & { folded?: JudgedFolded[] })[] {
  return results.map(({ folded, ...hit }) =>
    folded === undefined ? hit : { ...hit, folded: folded.map((f) => ({ ...f, freshness: null })) },
  );
}

/**
 * The L0 chunks each line of one project was drawn from, as ingest read them: its L0 citations
 * (walked whatever citation mode the caller asked for, so `--citations none` is judged too), in
 * sha order. Read for the page at once (issue 15 target 3): the lines in one statement, their
 * citations as citationsOfPage reads a page, and every cited chunk's span in one more; it cost
 * four statements a line (the line, its edges, each cited chunk, their spans).
 */
function citedChunksOfPage(
  items: ItemStore,
  project: string,
  lines: readonly JudgedLine[],
): CitedChunk[][] {
  const unread = lines.filter((l) => l.cited === undefined);
  const nodes = unread.length === 0 ? [] : items.nodesAt(unread.map((l) => keyOf(project, l)));
  const found = nodes.filter((node) => node !== undefined);
  const read = new Map(
    found.length === 0
      ? []
      : citationsOfPage(items, found, 'excerpt').map((cited, i) => [lineKey(found[i]!), cited]),
  );
  const l0 = (cited: readonly Cited[]) =>
    [...new Set(cited.filter((c) => c.level === 'L0').map((c) => c.sha256))].sort();
  // A line the store does not hold cites nothing (it was read here and not found).
  const shasOf = lines.map((l) => l0(l.cited ?? read.get(lineKey({ ...l, project })) ?? []));
  const all = [...new Set(shasOf.flat())];
  const spans = new Map(
    (all.length === 0 ? [] : items.citedChunks(project, all)).map((row) => [
      row.sha256,
      {
        source: row.source,
        start: row.span_start,
        end: row.span_end,
        sha256: row.sha256,
        ...(row.bytes_sha256 !== null ? { bytesSha256: row.bytes_sha256 } : {}),
        chunkTokens: row.chunk_tokens,
      } satisfies CitedChunk,
    ]),
  );
  return shasOf.map((shas) => shas.flatMap((sha) => spans.get(sha) ?? []));
}

const keyOf = (project: string, line: JudgedLine) => ({
  project,
  level: line.level as 'L1' | 'L2',
  sha256: line.sha256,
});

/**
 * The lines of a judged page that left `results` while hits were folded into them: recall
 * runs again without them, so those duplicates stand on their own (query.ts).
 */
export function heldBackWithDuplicates(
  page: readonly (JudgedLine & { kind: string; folded?: readonly unknown[] })[],
  kept: readonly Pick<JudgedLine, 'project' | 'level' | 'sha256'>[],
): Set<string> {
  const delivered = new Set(kept.map(lineKey));
  return new Set(
    page
      .filter((hit) => hit.kind === 'line' && (hit.folded?.length ?? 0) > 0)
      .map(lineKey)
      .filter((key) => !delivered.has(key)),
  );
}

/**
 * The warnings of a page recalled again without `hidden`: theirs from the first page (they
 * are still held back, and named first), then the second page's, bounded as one list.
 */
export function withHiddenWarnings(
  first: { freshness_warnings: LineFreshnessWarning[] },
  hidden: ReadonlySet<string>,
  second: { freshness_warnings: LineFreshnessWarning[]; freshness_warnings_left_out?: number },
): { freshness_warnings: LineFreshnessWarning[]; freshness_warnings_left_out?: number } {
  const all = [
    ...first.freshness_warnings.filter((w) => hidden.has(lineKey(w))),
    ...second.freshness_warnings,
  ];
  const unique = [...new Map(all.map((w) => [lineKey(w), w])).values()];
  const leftOut =
    (second.freshness_warnings_left_out ?? 0) + Math.max(0, unique.length - MAX_LINE_WARNINGS);
  return {
    freshness_warnings: unique.slice(0, MAX_LINE_WARNINGS),
    ...(leftOut > 0 ? { freshness_warnings_left_out: leftOut } : {}),
  };
}
