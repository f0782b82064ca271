import { z } from 'zod';
import { CITATION_MODES, matchSignatures, type SignatureMatch } from '@mem/query';
import { requireReach } from '../caller.js';
import { defineOperation } from '../operation.js';
import { visibleProjects } from './reach.js';
import { listInput, projectInput } from './schemas.js';
import { citedLevel } from './query-output.js';

/** The most characters of raw log one lookup reads: a long CI log, not a whole artefact store. */
export const MAX_SIGNATURE_SOURCE_CHARS = 4 * 1024 * 1024;

const citation = z.object({
  level: citedLevel,
  sha256: z.string(),
  source: z.string().nullable(),
  text: z.string(),
  t: z.number().nullable(),
  text_chars: z.number().optional(),
});

const signatureMatch = z.object({
  sig_sha: z.string(),
  signature: z.string(),
  raw: z.string(),
  seen: z.array(
    z.object({
      project: z.string(),
      level: z.enum(['L1', 'L2']),
      line: z.object({ sha256: z.string(), text: z.string() }),
      memory_sha: z.string(),
      tool: z.string(),
      seen_count: z.number(),
      first_seen: z.string(),
      last_seen: z.string(),
      citations: z.array(citation),
    }),
  ),
});

/**
 * `mem signature FILE|-` / POST /memory/signatures/match: the failure signatures of a raw
 * failing log and, for each, the lines seen with it before, with their citations. Federated
 * like a query: every project the caller reaches, or the ones it names.
 */
export const matchSignature = defineOperation({
  name: 'match_signature',
  summary:
    'the failure signatures of a raw failing log, each with the memory lines seen with the same failure before, and their citations',
  input: z.strictObject({
    source: z
      .string()
      .min(1, 'expected the raw failing log: a non-empty text')
      .max(
        MAX_SIGNATURE_SOURCE_CHARS,
        `expected at most ${MAX_SIGNATURE_SOURCE_CHARS} characters of log`,
      ),
    project: listInput(projectInput, 1, 100).optional(),
    citations: z.enum(CITATION_MODES).default('excerpt'),
  }),
  output: z.object({ signatures: z.array(signatureMatch) }),
  kind: 'read',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  // A raw log runs to MBs (issue 14 §3): read under the server's log limit, not the 64 KB default.
  http: { method: 'POST', path: '/memory/signatures/match', body: 'log' },
  mcp: {
    tool: 'match_signature',
    description:
      'Paste a failing log or error: returns its failure signatures and where exactly this failure was seen before, with the lines learned from it.',
  },
  cli: {
    command: ['signature'],
    args: ['source'],
    files: ['source'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'only this project (repeatable; default: every project)',
        parse: 'list',
        repeatable: true,
      },
      {
        field: 'citations',
        flag: '--citations <mode>',
        description: `how much of each citation's text: ${CITATION_MODES.join('|')} (default excerpt)`,
      },
    ],
    text: signatureText,
  },
  run: async (ctx, caller, input) => {
    for (const project of input.project ?? []) requireReach(caller, project);
    const view = await ctx.stores.fresh();
    const projects = input.project
      ? [...new Set(input.project)].sort()
      : await visibleProjects(ctx, caller, view);
    return {
      signatures: matchSignatures(view.items, {
        text: input.source,
        projects,
        citations: input.citations,
      }),
    };
  },
});

function signatureText(output: { signatures: SignatureMatch[] }): string {
  if (output.signatures.length === 0) return 'no failure signature in this log';
  const out: string[] = [];
  for (const sig of output.signatures) {
    out.push(`${sig.sig_sha.slice(0, 12)}  ${sig.signature}`);
    if (sig.seen.length === 0) out.push('  not seen before');
    for (const seen of sig.seen) {
      out.push(
        `  seen ${seen.seen_count}× in ${seen.project} (${seen.first_seen} … ${seen.last_seen}): ${seen.line.text}  [${seen.line.sha256.slice(0, 8)}]`,
      );
      for (const c of seen.citations)
        out.push(
          `    ← ${c.level} ${c.sha256.slice(0, 8)} ${c.source ?? ''}${c.t !== null ? ` t${c.t}` : ''}`,
        );
    }
  }
  return out.join('\n');
}
