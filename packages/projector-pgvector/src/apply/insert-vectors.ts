import type { Sql } from '../backend/sql.js';
import type { VectorKind } from '../plan/planned-write.js';
import type { VectorText } from '../plan/vector-texts.js';
import { run } from './run-writes.js';
import type { StatementSql } from './statements.js';
import { vectorLiteral } from './vector-literal.js';

/** One vector row to write. */
export interface VectorRow {
  level: string;
  sha: string;
  kind: VectorKind;
  vector: Float32Array;
  seq: number;
}

/** Rows per insertVectors statement: ~0.8 MB of text at 768 dimensions. */
const VECTOR_RUN = 64;

/** A node or line a batch really created, with the texts its vectors embed. */
export interface VectorSource {
  level: string;
  sha256: string;
  seq: number;
  texts: VectorText[];
}

/**
 * The vector rows of the nodes and lines a batch created, from the batch's embeddings. A text
 * left unembedded is a line the batch forgets (embedNodeTexts): it gets no row.
 */
export function vectorRows(
  created: readonly VectorSource[],
  embeddings: ReadonlyMap<string, Float32Array>,
): VectorRow[] {
  return created.flatMap((source) =>
    source.texts
      .filter(({ text }) => embeddings.has(text))
      .map(({ kind, text }) => ({
        level: source.level,
        sha: source.sha256,
        kind,
        vector: embeddings.get(text)!,
        seq: source.seq,
      })),
  );
}

/** Writes vector rows in array statements; `live` comes from each node's state after the batch. */
export async function insertVectors(
  tx: Sql,
  sql: StatementSql,
  project: string,
  rows: readonly VectorRow[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += VECTOR_RUN) {
    const part = rows.slice(start, start + VECTOR_RUN);
    await run(part[0]!.seq, 'insertVectors', () =>
      tx.query(sql.insertVectors, [
        project,
        part.map((r) => r.level),
        part.map((r) => r.sha),
        part.map((r) => r.kind),
        part.map((r) => vectorLiteral(r.vector)),
      ]),
    );
  }
}
