import { MemError } from '@mem/core';
import type { Embedder } from '@mem/embed';
import type { SeqWrite } from './run-writes.js';
import { lineVectorTexts, vectorTexts } from '../plan/vector-texts.js';

/**
 * Embeds every text a batch's nodes, lines and items may need, each distinct text once, before the transaction
 * opens (an embedder may be a remote model: no locks are held while it answers). A vector of the
 * wrong dimension or with a non-finite value is MODEL_FAILED naming the embedder.
 */
export async function embedNodeTexts(
  embedder: Embedder,
  writes: readonly SeqWrite[],
  forgotten: ReadonlySet<string> = new Set(),
  itemTexts: Iterable<string | null> = [],
): Promise<Map<string, Float32Array>> {
  const texts = new Set<string>();
  // The text each item write leaves (itemTextsAfter): an item is embedded as a line is, a document.
  for (const text of itemTexts) if (text !== null) texts.add(text);
  for (const { write } of writes) {
    if (write.statement === 'insertNode')
      for (const { text } of vectorTexts(write.params)) texts.add(text);
    // A line the batch also forgets gets no vector: its text is not embedded (nor cached) at all.
    if (write.statement === 'insertLines')
      for (const line of write.params.lines)
        for (const { kind, text } of lineVectorTexts(line, write.params.symptom))
          if (kind === 'symptom' || !forgotten.has(line.sha256)) texts.add(text);
    // A correction's successor line: its text (its symptom vector is the old line's, copied);
    // a line added in the vault: its text (it has no symptom).
    if (write.statement === 'insertSuccessorLines' && !forgotten.has(write.params.after_sha256))
      texts.add(write.params.text);
    if (write.statement === 'insertAddedLine' && !forgotten.has(write.params.sha256))
      texts.add(write.params.text);
  }
  const list = [...texts];
  // Text and symptom alike are what a query is matched against: documents, never queries.
  const vectors = list.length > 0 ? await embedder.embed(list, 'document') : [];
  if (vectors.length !== list.length) {
    throw new MemError(
      'MODEL_FAILED',
      `embedder ${embedder.name} returned ${vectors.length} vectors for ${list.length} texts`,
      { embedder: embedder.name },
    );
  }
  const out = new Map<string, Float32Array>();
  list.forEach((text, i) => {
    const vector = vectors[i]!;
    if (vector.length !== embedder.dims || !vector.every(Number.isFinite)) {
      throw new MemError(
        'MODEL_FAILED',
        `embedder ${embedder.name} returned a vector of ${vector.length} dimensions${vector.every(Number.isFinite) ? '' : ' with non-finite values'}, expected ${embedder.dims} finite values`,
        {
          embedder: embedder.name,
          expected: embedder.dims,
          actual: vector.length,
        },
      );
    }
    out.set(text, vector);
  });
  return out;
}
