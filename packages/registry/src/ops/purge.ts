import { z } from 'zod';
import { requireReach, writerOf } from '../caller.js';
import { defineOperation } from '../operation.js';
import { refuseUncapturedEdits } from './rebuild-guard.js';
import { projectInput } from './schemas.js';

/**
 * Hard purge (DESIGN §9): text that must leave every byte — a secret that slipped through,
 * personal data — is replaced by its hash in the log, and every projection and cache rebuilt.
 * Admin and destructive: the one operation that rewrites history.
 */
export const purge = defineOperation({
  name: 'purge',
  summary: 'rewrite the log without a text and rebuild every projection (admin; destructive)',
  input: z.strictObject({
    ref: z.string().min(1).max(10_000),
    project: projectInput,
    reason: z.string().trim().min(1, 'expected a non-empty reason').max(500),
  }),
  output: z.object({
    project: z.string(),
    text_sha256: z.string(),
    lines: z.array(z.object({ seq: z.number(), old: z.string(), new: z.string() })),
    segments: z.array(z.string()),
    seq: z.number(),
  }),
  kind: 'write',
  idempotent: false,
  destructive: true,
  auth: { access: 'admin', project: 'project' },
  reads: 'log',
  http: { method: 'POST', path: '/memory/purge' },
  mcp: {
    tool: 'purge',
    description:
      'Hard purge (admin, destructive): replace a text (or the node a sha names) by its hash in the log, then rebuild every projection.',
  },
  cli: {
    command: ['purge'],
    args: ['ref'],
    options: [
      {
        field: 'project',
        flag: '--project <name>',
        description: 'the project whose log holds the text',
      },
      {
        field: 'reason',
        flag: '--reason <text>',
        description: 'why (recorded in the purged event; must not contain the text)',
      },
    ],
    text: (out) =>
      `purged ${out.lines.length} line${out.lines.length === 1 ? '' : 's'} of ${out.project} (seqs ${out.lines.map((l) => l.seq).join(', ')}) in ${out.segments.join(', ')}; purged event at seq ${out.seq}; every projection rebuilt`,
  },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    // The purge drops the whole vault and replays it: an uncaptured edit in any project's
    // note would be overwritten without a word, as a rebuild would (rebuild-guard.ts).
    await refuseUncapturedEdits(ctx.engine, undefined, 'purge');
    return ctx.engine.purge(
      input.project,
      { ref: input.ref, reason: input.reason },
      writerOf(caller),
    );
  },
});
