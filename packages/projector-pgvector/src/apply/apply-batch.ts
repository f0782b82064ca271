import type { ProjectionBatch } from '@mem/engine';
import type { PgvectorHandle } from '../handle.js';
import { planEvent } from '../plan/plan-event.js';
import { readPosition } from '../position.js';
import { analyzeGrown, countVectorsWritten } from './analyze.js';
import { checkStart } from '@mem/engine';
import { deferIndexesForLoad } from './deferred-indexes.js';
import { embedNodeTexts } from './embed-nodes.js';
import { forgottenShas, forgottenTexts } from './forgotten-texts.js';
import { insertVectors, vectorRows } from './insert-vectors.js';
import { itemTextsAfter, storedItems } from './item-texts.js';
import { runWrites, type SeqWrite } from './run-writes.js';

/**
 * The imperative shell of `project()`: checks where the batch starts, plans every event (nothing is written
 * if one cannot be planned), embeds the texts its nodes need, then applies the writes, the
 * vectors of the nodes it created and the new position in one transaction under a per-project
 * advisory lock. A failed batch leaves nothing behind, position included. An item's text may
 * rest on rows applied earlier (an update of its detail alone): those are read before embedding.
 */
export async function applyBatch(
  handle: PgvectorHandle,
  project: string,
  batch: ProjectionBatch,
): Promise<void> {
  const { events, after, through } = batch;
  const writes: SeqWrite[] = events.flatMap(({ event }) =>
    planEvent(event).map((write) => ({ seq: event.seq, write })),
  );
  const { client, schema } = handle.backend;
  // Checked before embedding too: a replayed batch fails fast, without asking a model anything.
  checkStart(
    project,
    await readPosition(client, handle.sql, project),
    after,
    'pgvector projection',
  );
  const forgotten = forgottenShas(writes);
  const itemTexts = itemTextsAfter(writes, await storedItems(client, handle.sql, project, writes));
  const embeddings = await embedNodeTexts(handle.embedder, writes, forgotten, itemTexts.values());
  const dropped = await client.transaction(async (tx) => {
    await tx.query(handle.sql.lockProject, [`mem-pgvector:${schema}:${project}`]);
    checkStart(project, await readPosition(tx, handle.sql, project), after, 'pgvector projection');
    const texts = await forgottenTexts(tx, handle.sql, project, writes, forgotten);
    const created = await runWrites(tx, handle.sql, project, writes, {
      texts: itemTexts,
      embeddings,
    });
    const rows = vectorRows(created, embeddings);
    await deferIndexesForLoad(tx, schema, rows.length);
    await insertVectors(tx, handle.sql, project, rows);
    await countVectorsWritten(tx, schema, rows.length);
    await tx.query(handle.sql.writePosition, [project, through.seq, through.head]);
    return texts;
  });
  // After the commit: a failed batch forgot nothing, so its texts' cached vectors must stay.
  if (dropped.length > 0) handle.embedder.forget?.(dropped);
  // The next batch's plans are made for the tables as they are now, not as they were at the first.
  await analyzeGrown(client, schema);
}
