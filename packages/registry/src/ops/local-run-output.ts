import { z } from 'zod';

/*
 * The reports of a local ingest, dry run and synthesis, declared whole (the ingest package's
 * IngestReport, DryRunReport and SynthesizeReport): what `--json` prints, checked field by
 * field by the parity test.
 */

const counts = z.record(z.string(), z.number());
const lineRef = z.object({ file: z.string(), line: z.number() });

/** What one source read (@mem/sources' SourceStats). */
export const sourceStats = z.object({
  bytes: z.number(),
  duplicateUuids: z.number(),
  files: z.number(),
  filesSkipped: counts,
  glued: z.object({ lines: z.number(), objects: z.number() }),
  invalidJson: z.object({ count: z.number(), samples: z.array(lineRef) }),
  lines: z.number(),
  media: z.object({ images: z.number(), documents: z.number(), bytes: z.number() }),
  pasted: counts,
  records: counts,
  retyped: counts,
  secrets: counts,
  skipped: counts,
  toolTextCut: z.object({ count: z.number(), chars: z.number() }),
  truncatedTails: z.object({
    count: z.number(),
    samples: z.array(lineRef.extend({ bytes: z.number() })),
  }),
  unknown: z.object({
    count: z.number(),
    top: z.array(z.object({ kind: z.string(), count: z.number() })),
  }),
});

/** One gated run's summary (@mem/extractor's RunSummary). */
const runSummary = z.object({
  runId: z.string(),
  level: z.enum(['L1', 'L2']),
  queryId: z.string().nullable(),
  started: z.boolean(),
  chunksSeen: z.number(),
  chunksUsed: z.number(),
  chunksSkipped: z.number(),
  chunksDerived: z.number(),
  memory: z.object({ text: z.string(), sha256: z.string(), tokens: z.number() }).nullable(),
  exited: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const dryRunReport = z.object({
  project: z.string(),
  file: z.string(),
  queries: z.array(z.string()),
  sources: z.array(
    z.object({
      entry: z.string(),
      kind: z.string(),
      path: z.array(z.string()),
      stats: sourceStats,
    }),
  ),
  records: z.object({ total: z.number(), byRole: counts }),
  chunks: z.number(),
  tokens: z.object({
    total: z.number(),
    max: z.number(),
    histogram: z.object({
      buckets: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
      over: z.number(),
      count: z.number(),
      totalTokens: z.number(),
      min: z.number(),
      max: z.number(),
      mean: z.number(),
    }),
  }),
  bytes: z.number(),
});

export const ingestReport = z.object({
  project: z.string(),
  controller: z.string(),
  queries: z.array(runSummary.extend({ question: z.string(), updateRate: z.number() })),
  sources: z.array(z.object({ entry: z.string(), stats: sourceStats })),
  chunks: z.number(),
  derivedArtifacts: z.number(),
  appended: z.number(),
});

export const synthesizeReport = runSummary.extend({
  project: z.string(),
  question: z.string(),
  inputs: z.number(),
  steps: z.number(),
});

export type DryRunOutput = z.infer<typeof dryRunReport>;
export type IngestOutput = z.infer<typeof ingestReport>;
export type SynthesizeOutput = z.infer<typeof synthesizeReport>;
