import {
  chunks,
  chunkPolicy,
  tokenHistogram,
  type Tokenizer,
  type TokenHistogram,
} from '@mem/chunk';
import type { SourceStats } from '@mem/sources';
import type { StandingQueries } from './standing-queries.js';
import { transcriptSource } from './transcripts.js';

export interface DryRunReport {
  project: string;
  file: string;
  queries: string[];
  sources: { entry: string; kind: string; path: string[]; stats: SourceStats }[];
  records: { total: number; byRole: Record<string, number> };
  chunks: number;
  tokens: { total: number; max: number; histogram: TokenHistogram };
  bytes: number;
}

/**
 * `mem ingest --dry-run`: what an ingest would read — sources and files found, records by
 * role, skipped/unknown/invalid counts, secrets scrubbed, chunks and a token histogram.
 * Zero model calls; nothing is written.
 */
export async function dryRun(config: StandingQueries, tokenizer: Tokenizer): Promise<DryRunReport> {
  const policy = chunkPolicy({ maxTokens: config.chunkTokens });
  const sizes: number[] = [];
  const byRole: Record<string, number> = {};
  let total = 0;
  let records = 0;
  let bytes = 0;
  const sources: DryRunReport['sources'] = [];
  for (const resolved of config.sources) {
    const source = transcriptSource(resolved);
    for await (const chunk of chunks(source, policy, tokenizer)) {
      sizes.push(chunk.tokens);
      total += chunk.tokens;
      bytes += Buffer.byteLength(chunk.text);
      for (const record of chunk.records) {
        if (record.part && record.part.lines[0] !== 0) continue; // count a split record once
        byRole[record.role] = (byRole[record.role] ?? 0) + 1;
        records += 1;
      }
    }
    sources.push({
      entry: resolved.entry,
      kind: resolved.kind,
      path: resolved.dir ? [resolved.dir] : [...(resolved.files ?? [])],
      stats: source.stats(),
    });
  }
  return {
    project: config.project,
    file: config.file,
    queries: config.queries.map((q) => q.id),
    sources,
    records: {
      total: records,
      byRole: Object.fromEntries(
        Object.entries(byRole).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      ),
    },
    chunks: sizes.length,
    tokens: {
      total,
      max: sizes.reduce((m, s) => Math.max(m, s), 0),
      histogram: tokenHistogram(sizes, policy.maxTokens),
    },
    bytes,
  };
}
