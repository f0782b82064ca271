import type { Chunk } from '@mem/chunk';
import type { LoopStep } from '@mem/extractor';

/** A chunker chunk as the gated loop sees it: the text and each record's own slice of it. */
export function stepFromChunk(chunk: Chunk, derived: boolean): LoopStep {
  return {
    text: chunk.text,
    records: chunk.records.map((record) => ({
      role: record.role,
      text: chunk.text.slice(record.textRange[0], record.textRange[1]),
      // A part of a split summary holds only some of its sections' text: its sections would lie.
      ...(record.sections !== undefined && record.part === undefined
        ? { sections: record.sections }
        : {}),
      ...(record.pasted !== undefined ? { pasted: record.pasted } : {}),
    })),
    sha256: chunk.sha256,
    bytesSha256: chunk.bytesSha256,
    source: chunk.source,
    span: chunk.span,
    ...(derived ? { derived: true } : {}),
  };
}
