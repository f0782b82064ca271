import { sourceForPath, type TranscriptSource } from '@mem/sources';
import type { ResolvedSource } from './standing-queries.js';

/** The record source of one resolved standing-query entry. */
export function transcriptSource(source: ResolvedSource): TranscriptSource {
  return sourceForPath(
    source.dir ?? source.files ?? [],
    source.kind,
    undefined,
    source.cwd === undefined ? {} : { cwd: source.cwd },
  );
}
