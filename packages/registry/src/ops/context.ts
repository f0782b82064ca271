import { z } from 'zod';
import { CITATION_MODES, assembleContext } from '@mem/query';
import { requireReach } from '../caller.js';
import { defineOperation } from '../operation.js';
import {
  boundedWarnings,
  judgeLines,
  lineFreshnessWarning,
  lineKey,
  lineWarningLine,
  type JudgedLine,
  type LineVerdicts,
} from './query-freshness.js';
import { citation, queryHit } from './query-output.js';
import { visibleProjects } from './reach.js';
import { projectInput } from './schemas.js';
import { MAX_SIGNATURE_SOURCE_CHARS } from './signatures.js';
import { visibleSkills } from './skills.js';

/** The bundle's budget unless asked: an eighth of a 32,768-token context (seed 001's OLLAMA_CONTEXT_LENGTH). */
export const DEFAULT_CONTEXT_BUDGET = 4096;
/** The most tokens a bundle may be given: a whole large context window. */
export const MAX_CONTEXT_BUDGET = 1_000_000;

const signatureEntry = z.object({
  tier: z.literal(1),
  sig_sha: z.string(),
  signature: z.string(),
  raw: z.string(),
  project: z.string(),
  level: z.enum(['L1', 'L2']),
  line: z.object({ sha256: z.string(), text: z.string() }),
  memory_sha: z.string(),
  tool: z.string(),
  seen_count: z.number(),
  first_seen: z.string(),
  last_seen: z.string(),
  citations: z.array(citation),
  tokens: z.number(),
});

const recallEntry = queryHit.omit({ tier: true }).extend({
  tier: z.union([z.literal(2), z.literal(3)]),
  project_match: z.boolean(),
  tokens: z.number(),
});

const contextOutput = z.object({
  results: z.array(z.union([signatureEntry, recallEntry])),
  skills: z.array(
    z.object({
      tier: z.literal('skill'),
      name: z.string(),
      description: z.string().nullable(),
      when_to_use: z.string().nullable(),
      tokens: z.number(),
    }),
  ),
  signatures: z.array(z.object({ sig_sha: z.string(), signature: z.string(), seen: z.number() })),
  budget: z.object({
    limit: z.number(),
    used: z.number(),
    dropped: z.array(
      z.object({
        part: z.enum(['reference', 'similar', 'skills']),
        count: z.number(),
        tokens: z.number(),
      }),
    ),
  }),
  notes: z.array(z.object({ leg: z.string(), code: z.string(), message: z.string() })),
  /**
   * The memory lines the bundle would have packed whose cited evidence changed or is gone:
   * packed only under include_stale, named here either way (bounded;
   * `freshness_warnings_left_out` counts the rest).
   */
  freshness_warnings: z.array(lineFreshnessWarning),
  freshness_warnings_left_out: z.number().optional(),
});

type ContextOutput = z.infer<typeof contextOutput>;

/**
 * `mem context` / POST /memory/context (seed 001, "Tool context"): what this memory knows about
 * a tool, a task or a raw failure, in three tiers (exact signature, similar memories, reference
 * docs) with the matching skills, cut to a token budget by the seed's order. Describes tools,
 * never runs them; stores nothing.
 */
export const context = defineOperation({
  name: 'context',
  summary:
    'tool context: exact prior failures (tier 1), similar memories (tier 2), reference docs (tier 3) and matching skills, within a token budget',
  input: z
    .strictObject({
      tool: z.string().trim().min(1).max(200).optional(),
      task: z.string().trim().min(1).max(4000).optional(),
      signature_source: z
        .string()
        .min(1, 'expected the raw failing log: a non-empty text')
        .max(
          MAX_SIGNATURE_SOURCE_CHARS,
          `expected at most ${MAX_SIGNATURE_SOURCE_CHARS} characters of log`,
        )
        .optional(),
      budget: z.int().min(1).max(MAX_CONTEXT_BUDGET).default(DEFAULT_CONTEXT_BUDGET),
      project: projectInput.optional(),
      citations: z.enum(CITATION_MODES).default('excerpt'),
      /** As on query: a stale or unknown line is packed too, still named in freshness_warnings. */
      include_stale: z.boolean().optional(),
    })
    .refine(
      (i) => i.tool !== undefined || i.task !== undefined || i.signature_source !== undefined,
      {
        message: 'expected at least one of tool, task, signature_source',
      },
    ),
  output: contextOutput,
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  reads: 'vectors',
  http: { method: 'POST', path: '/memory/context', body: 'log' },
  mcp: {
    tool: 'context',
    description:
      'Before using a tool or on a failure: give a tool name, a task or a raw failing log; returns what failed here before (tier 1), similar lessons (tier 2), docs (tier 3) and skills, within a token budget. A line whose cited transcript span was rewritten or whose session is gone is left out and named in freshness_warnings; include_stale packs it, still named.',
  },
  cli: {
    command: ['context'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description:
          'the caller’s project: task and docs stay in it, failures federate and rank it first',
      },
      { field: 'tool', flag: '--tool <name>', description: 'the tool about to be used' },
      { field: 'task', flag: '--task <text>', description: 'the task at hand' },
      {
        field: 'signature_source',
        flag: '--signature-source <file>',
        description: 'a raw failing log: a file, or - for stdin',
        parse: 'text-file',
      },
      {
        field: 'budget',
        flag: '--budget <tokens>',
        description: `tokens the bundle may take (default ${DEFAULT_CONTEXT_BUDGET})`,
        parse: 'integer',
      },
      {
        field: 'include_stale',
        flag: '--include-stale',
        parse: 'boolean',
        description:
          'also pack the lines whose cited session was rewritten or deleted (each still named in freshness_warnings)',
      },
    ],
    text: contextText,
    warnings: (out) => out.notes.map((n) => `context: ${n.leg} left out (${n.code}): ${n.message}`),
  },
  run: async (ctx, caller, input) => {
    if (input.project !== undefined) requireReach(caller, input.project);
    // Settled (stores.ts): tier 2's vector hits are looked up in the item store.
    return ctx.stores.settledRead(
      input.project !== undefined ? [input.project] : [],
      async (view) => {
        const reachable = await visibleProjects(ctx, caller, view);
        const includeStale = input.include_stale === true;
        const judged: JudgedLine[] = [];
        let verdicts: LineVerdicts = { warnings: new Map() };
        const bundle = await assembleContext(
          {
            ...(input.tool !== undefined ? { tool: input.tool } : {}),
            ...(input.task !== undefined ? { task: input.task } : {}),
            ...(input.signature_source !== undefined
              ? { signatureSource: input.signature_source }
              : {}),
            budget: input.budget,
            project: input.project ?? null,
            reachable,
            citations: input.citations,
          },
          {
            ...ctx.queryDeps,
            items: view.items,
            skills: async () =>
              (await visibleSkills(ctx, caller)).map((s) => ({
                name: s.name,
                description: str(s.frontmatter['description']),
                when_to_use: str(s.frontmatter['when_to_use']),
              })),
            freshness: async (lines) => {
              judged.push(...lines);
              verdicts = await judgeLines(ctx, view.items, lines, includeStale);
              // Held back unless asked for; named in the warnings either way.
              return lines.map((l) => !includeStale && verdicts.warnings.has(lineKey(l)));
            },
          },
        );
        const out: ContextOutput = { ...bundle, ...boundedWarnings(judged, verdicts) };
        return out;
      },
      // Tier 2 recalls from pgvector, which a write leaves behind: caught up first.
      { vectors: true },
    );
  },
});

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function contextText(out: ContextOutput): string {
  const lines: string[] = [];
  for (const r of out.results) {
    if (r.tier === 1)
      lines.push(
        `[tier 1] seen ${r.seen_count}× in ${r.project}: ${r.line.text}  (${r.signature})`,
      );
    else lines.push(`[tier ${r.tier}] ${r.project} ${r.level} ${r.text}`);
  }
  for (const s of out.skills)
    lines.push(`[skill] ${s.name}${s.description ? `: ${s.description}` : ''}`);
  if (lines.length === 0) lines.push('nothing known about this yet');
  lines.push(...out.freshness_warnings.map(lineWarningLine));
  if (out.freshness_warnings_left_out !== undefined)
    lines.push(`… ${out.freshness_warnings_left_out} more held back`);
  const cut = out.budget.dropped.map((d) => `${d.part} −${d.count}`).join(', ');
  lines.push(`${out.budget.used}/${out.budget.limit} tokens${cut ? `; dropped ${cut}` : ''}`);
  return lines.join('\n');
}
