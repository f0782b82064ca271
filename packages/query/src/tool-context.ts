import { isMemError } from '@mem/core';
import type { Tokenizer } from '@mem/chunk';
import type { CitationMode } from './citations.js';
import { fitBudget, type BudgetReport } from './context-budget.js';
import { matchSkills, type SkillCard } from './context-skills.js';
import {
  matchSignatures,
  type SignatureMatch,
  type SignatureSighting,
} from './match-signatures.js';
import { queryMemory, type QueryDeps } from './query-memory.js';
import { countTokens } from './token-counts.js';
import type { Citation, QueryHit, QueryResult } from './result.js';

/** The legs of a bundle: each runs, and fails, on its own. */
export type ContextLeg = 'signature' | 'similar' | 'reference' | 'skills' | 'freshness';

/** What a caller about to use a tool asks (seed 001, "Tool context"): any of tool, task, log. */
export interface ContextRequest {
  tool?: string;
  task?: string;
  /** A raw failing log (a CI log, a pasted error): read for its failure signatures. */
  signatureSource?: string;
  /** Tokens the whole bundle may take, counted with the chunker's tokenizer. */
  budget: number;
  /** The caller's project: the task-shaped legs stay in it, the federated ones rank it first. */
  project: string | null;
  /** Every project the caller reaches (already narrowed), sorted. */
  reachable: readonly string[];
  citations?: CitationMode;
}

export interface ContextDeps extends QueryDeps {
  /** The tokenizer the budget counts with (default: the chunker's Qwen2.5 counter). */
  tokenizer?: Tokenizer;
  /** The loadable skills the caller may see. */
  skills?: () => Promise<SkillCard[]>;
  /**
   * Which of these memory lines must not be packed silently (their cited evidence changed or
   * is gone), in the order given; the caller keeps the warnings. Absent: nothing is judged.
   */
  freshness?: (lines: readonly ContextLine[]) => Promise<readonly boolean[]>;
}

/** A memory line a bundle would pack, as its freshness is judged. */
export interface ContextLine {
  project: string;
  level: string;
  sha256: string;
  text: string;
}

/** Tier 1: this exact failure happened here before. */
export interface SignatureEntry extends SignatureSighting {
  tier: 1;
  sig_sha: string;
  signature: string;
  raw: string;
  tokens: number;
}

/** Tier 2 (something similar happened: symptom and text vectors, keywords) or 3 (the docs say: R). */
export interface RecallEntry extends Omit<QueryHit, 'tier'> {
  tier: 2 | 3;
  /** The row is in the caller's project (a rank boost, never a filter). */
  project_match: boolean;
  tokens: number;
}

export interface SkillEntry extends SkillCard {
  tier: 'skill';
  tokens: number;
}

export interface ContextBundle {
  /** Tier 1, then tier 2, then tier 3: learned before documented, by rule. */
  results: (SignatureEntry | RecallEntry)[];
  skills: SkillEntry[];
  /** The failure signatures read from the log, hit or not. */
  signatures: { sig_sha: string; signature: string; seen: number }[];
  budget: BudgetReport;
  /** A leg that failed (or ran thinner) and why: the bundle is what the other legs found. */
  notes: { leg: string; code: string; message: string }[];
}

/** A row of the caller's own project scores this much more in tier 2 (seed 001: "a rank boost, not a filter"). */
export const PROJECT_MATCH_BOOST = 1.5;
/** The most characters of log text a similarity query embeds: the salient lines, never the whole log. */
const QUERY_TEXT_CHARS = 2000;

/**
 * Assembles the tool context: tier 1 exact signature hits, tier 2 similar memories, tier 3
 * reference passages, and the skills that match, cut to the budget by the seed's truncation
 * order. Signature and symptom legs federate over the reachable projects; a task-shaped query
 * and the docs stay in the caller's project. Stores nothing.
 */
export async function assembleContext(
  request: ContextRequest,
  deps: ContextDeps,
): Promise<ContextBundle> {
  // Loaded on use: the chunker's tokenizer is megabytes, and every command that builds the
  // registry imports this module (test/cli-cold-start.int.spec.ts).
  const tokenizer = deps.tokenizer ?? (await import('@mem/chunk')).qwenTokenizer();
  const notes: ContextBundle['notes'] = [];
  const home = request.project !== null ? [request.project] : [...request.reachable];
  const citations = request.citations ?? 'excerpt';

  const leg = async <T>(name: ContextLeg, empty: T, run: () => Promise<T> | T): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      notes.push({ leg: name, ...describe(error) });
      return empty;
    }
  };

  const matches: SignatureMatch[] =
    request.signatureSource === undefined
      ? []
      : await leg('signature', [], () =>
          matchSignatures(deps.items, {
            text: request.signatureSource!,
            projects: request.reachable,
            citations,
          }),
        );
  const symptom = symptomText(request, matches);
  const taskText = [request.tool, request.task].filter(Boolean).join('\n');

  const [similar, reference, skillCards] = await Promise.all([
    leg('similar', [] as QueryHit[], () =>
      similarHits(request, deps, symptom, home, citations, notes),
    ),
    leg('reference', [] as QueryHit[], async () =>
      // Most projects hold no docs: the leg is then a whole query (keywords, an embedding, a
      // vector search) that cannot find anything. The count is cached per store version.
      deps.items.keywordStatistics({ projects: home, levels: ['R'] }).nodes === 0
        ? []
        : hitsOf(
            'reference',
            notes,
            await queryMemory(
              {
                text: [taskText, symptom].filter(Boolean).join('\n'),
                projects: home,
                levels: ['R'],
                citations,
              },
              deps,
            ),
          ),
    ),
    leg('skills', [] as SkillCard[], async () =>
      matchSkills(
        deps.skills ? await deps.skills() : [],
        request.tool ?? null,
        [taskText, symptom].join('\n'),
      ),
    ),
  ]);

  const count = (texts: string[]) => texts.reduce((n, t) => n + countTokens(tokenizer, t), 0);
  const citationTexts = (list: readonly Citation[]) => list.map((c) => c.text);
  const exact: SignatureEntry[] = matches.flatMap((m) =>
    rankSightings(m.seen, request.project).map((seen) => ({
      tier: 1 as const,
      sig_sha: m.sig_sha,
      signature: m.signature,
      raw: m.raw,
      ...seen,
      tokens: count([m.signature, seen.line.text, ...citationTexts(seen.citations)]),
    })),
  );
  const exactLines = new Set(exact.map((e) => `${e.project}\0${e.line.sha256}`));
  const recallEntry =
    (tier: 2 | 3) =>
    (hit: QueryHit): RecallEntry => ({
      ...hit,
      tier,
      project_match: hit.project === request.project,
      tokens: count([hit.text, ...citationTexts(hit.parents)]),
    });
  const tier2 = similar
    .filter((hit) => !exactLines.has(`${hit.project}\0${hit.sha256}`))
    .map(recallEntry(2))
    .map((e) => ({ ...e, cleared: e.ranking.floor_passed_by.length > 0 }));
  // Judged before the budget: a held-back line neither takes tokens nor reaches the bundle.
  const judged: ContextLine[] = [
    ...exact.map((e) => ({
      project: e.project,
      level: e.level,
      sha256: e.line.sha256,
      text: e.line.text,
    })),
    ...tier2.map((e) => ({ project: e.project, level: e.level, sha256: e.sha256, text: e.text })),
  ];
  const held: readonly boolean[] =
    deps.freshness && judged.length > 0
      ? await leg('freshness', [] as readonly boolean[], () => deps.freshness!(judged))
      : [];
  const freshExact = exact.filter((_, i) => held[i] !== true);
  const freshTier2 = tier2.filter((_, i) => held[exact.length + i] !== true);
  const tier3 = reference.map(recallEntry(3));
  const skillEntries: SkillEntry[] = skillCards.map((s) => ({
    ...s,
    tier: 'skill',
    tokens: count([s.name, s.description ?? '', s.when_to_use ?? '']),
  }));

  const { kept, report } = fitBudget(
    { signature: freshExact, similar: freshTier2, reference: tier3, skills: skillEntries },
    request.budget,
  );
  return {
    results: [
      ...kept.signature,
      ...kept.similar.map(({ cleared: _, ...e }) => e),
      ...kept.reference,
    ],
    skills: kept.skills,
    signatures: matches.map((m) => ({
      sig_sha: m.sig_sha,
      signature: m.signature,
      seen: m.seen.length,
    })),
    budget: report,
    notes,
  };
}

/**
 * Tier 2: the log's salient lines (and the tool) federated over every reachable project, the
 * task in the caller's project alone; the caller's rows boosted, floor-clearing rows first,
 * one row per line.
 */
async function similarHits(
  request: ContextRequest,
  deps: ContextDeps,
  symptom: string,
  home: string[],
  citations: CitationMode,
  notes: ContextBundle['notes'],
): Promise<QueryHit[]> {
  const legs: Promise<QueryHit[]>[] = [];
  const levels = ['L1', 'L2'] as const;
  if (symptom)
    legs.push(
      queryMemory({ text: symptom, projects: request.reachable, levels, citations }, deps).then(
        (r) => hitsOf('similar', notes, r),
      ),
    );
  if (request.task)
    legs.push(
      queryMemory({ text: request.task, projects: home, levels, citations }, deps).then((r) =>
        hitsOf('similar', notes, r),
      ),
    );
  const seen = new Set<string>();
  const merged = (await Promise.all(legs)).flat().filter((hit) => {
    const key = `${hit.project}\0${hit.level}\0${hit.sha256}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const boosted = (hit: QueryHit) =>
    hit.score * (hit.project === request.project ? PROJECT_MATCH_BOOST : 1);
  const cleared = (hit: QueryHit) => (hit.ranking.floor_passed_by.length > 0 ? 1 : 0);
  return merged.sort(
    (a, b) =>
      cleared(b) - cleared(a) ||
      boosted(b) - boosted(a) ||
      (a.project < b.project ? -1 : a.project > b.project ? 1 : a.sha256 < b.sha256 ? -1 : 1),
  );
}

/** A query's rows, with its failed inner legs (vector, rerank) noted under the bundle's leg. */
function hitsOf(leg: ContextLeg, notes: ContextBundle['notes'], result: QueryResult): QueryHit[] {
  for (const error of result.recall.errors)
    notes.push({ leg: `${leg}.${error.leg}`, code: error.code, message: error.message });
  return result.results;
}

/** What the similarity legs search for: the tool and the log's signature lines (else its tail). */
function symptomText(request: ContextRequest, matches: readonly SignatureMatch[]): string {
  const log =
    matches.length > 0
      ? matches.map((m) => m.raw).join('\n')
      : (request.signatureSource ?? '').trim().slice(-QUERY_TEXT_CHARS);
  return [request.tool, log].filter(Boolean).join('\n').slice(0, QUERY_TEXT_CHARS).trim();
}

/** The caller's project first, then the most seen, then by project and line: deterministic. */
function rankSightings(
  seen: readonly SignatureSighting[],
  project: string | null,
): SignatureSighting[] {
  return [...seen].sort(
    (a, b) =>
      Number(b.project === project) - Number(a.project === project) ||
      b.seen_count - a.seen_count ||
      (a.project < b.project
        ? -1
        : a.project > b.project
          ? 1
          : a.line.sha256 < b.line.sha256
            ? -1
            : 1),
  );
}

function describe(error: unknown): { code: string; message: string } {
  if (isMemError(error)) return { code: error.code, message: error.message };
  return {
    code: 'PROJECTION_FAILED',
    message: error instanceof Error ? error.message : String(error),
  };
}
