import { MemError, isMemError } from '@mem/core';
import type { Sql } from '../backend/sql.js';
import { sqlState } from '../backend/sql.js';
import { foldSignatures, type SignatureFold } from '../plan/fold-signatures.js';
import type {
  ItemTextWrite,
  LinesParams,
  NodeParams,
  PlannedWrite,
  SignatureParams,
} from '../plan/planned-write.js';
import { lineVectorTexts, vectorTexts } from '../plan/vector-texts.js';
import type { VectorSource } from './insert-vectors.js';
import type { StatementSql } from './statements.js';
import { vectorLiteral } from './vector-literal.js';

/** A planned write and the seq of the event that planned it (for error messages). */
export interface SeqWrite {
  seq: number;
  write: PlannedWrite;
}

/** The text each item write leaves (itemTextsAfter) and the batch's embeddings of them. */
export interface ItemVectors {
  texts: ReadonlyMap<ItemTextWrite, string | null>;
  embeddings: ReadonlyMap<string, Float32Array>;
}

/** Nodes sent in one insertNodes statement at most. */
const NODE_RUN = 1000;

/**
 * Runs planned writes in order. A run of consecutive insertNode writes (a corpus of references,
 * say) goes as one array statement; nothing else can sit between them, so their subqueries see
 * what one-by-one inserts would. Signature folds are summed per batch and sent last, in one call.
 * Returns the nodes and lines that were really created (first occurrence of their key), in
 * order, with their vector texts: those, and only those, get vectors. An item's vector goes
 * with the write that sets its text (the last one stands), carried in `items`.
 */
export async function runWrites(
  tx: Sql,
  sql: StatementSql,
  project: string,
  writes: readonly SeqWrite[],
  items: ItemVectors,
): Promise<VectorSource[]> {
  const created: VectorSource[] = [];
  const signatures: SignatureParams[] = [];
  for (let i = 0; i < writes.length;) {
    const { write, seq } = writes[i]!;
    if (write.statement === 'foldSignature') {
      // Nothing reads failure_signature and it reads nothing: the batch's folds go in one call at the end.
      signatures.push(write.params);
      i += 1;
      continue;
    }
    if (write.statement === 'insertLines') {
      const p = write.params;
      const rows = await run(seq, 'insertLines', () =>
        tx.query<{ sha256: string; created: boolean }>(sql.insertLines, linesColumns(p)),
      );
      const owed = new Map(rows.map((r) => [r.sha256, r.created]));
      // In the memory's line order, so the rows written do not depend on the function's.
      for (const line of p.lines) {
        const isNew = owed.get(line.sha256);
        if (isNew === undefined) continue;
        const texts = lineVectorTexts(line, p.symptom);
        created.push({
          level: p.level,
          sha256: line.sha256,
          seq: p.seq,
          texts: isNew ? texts : texts.filter((t) => t.kind === 'symptom'),
        });
      }
      i += 1;
      continue;
    }
    if (write.statement === 'insertSuccessorLines') {
      const p = write.params;
      const rows = await run(seq, 'insertSuccessorLines', () =>
        tx.query<{ level: string }>(sql.insertSuccessorLines, [
          p.project,
          p.target,
          p.after_sha256,
          p.text,
          p.seq,
        ]),
      );
      // The text vector per level created (its symptom vector is copied in SQL from the old line's).
      created.push(...textVectorsAt(rows, p.after_sha256, p.seq, p.text));
      i += 1;
      continue;
    }
    if (write.statement === 'insertAddedLine') {
      const p = write.params;
      const rows = await run(seq, 'insertAddedLine', () =>
        tx.query<{ level: string }>(sql.insertAddedLine, [
          p.project,
          p.level,
          p.sha256,
          p.text,
          p.seq,
        ]),
      );
      created.push(...textVectorsAt(rows, p.sha256, p.seq, p.text));
      i += 1;
      continue;
    }
    if (write.statement === 'insertItem' || write.statement === 'updateItemText') {
      const [text, vector] = itemVector(seq, write, items);
      const p = write.params;
      const params =
        write.statement === 'insertItem'
          ? [
              p.project,
              p.id,
              write.params.sha256,
              p.summary,
              p.detail,
              write.params.seq,
              text,
              vector,
            ]
          : [p.project, p.id, p.summary, p.detail, text, vector];
      await run(seq, write.statement, () => tx.query(sql[write.statement], params));
      i += 1;
      continue;
    }
    if (write.statement !== 'insertNode') {
      await run(seq, write.statement, () => tx.query(sql[write.statement], paramsOf(write)));
      i += 1;
      continue;
    }
    const nodes = new Map<string, NodeParams>();
    const firstSeq = seq;
    while (i < writes.length && nodes.size < NODE_RUN) {
      const next = writes[i]!.write;
      if (next.statement !== 'insertNode') break;
      const key = nodeKey(next.params);
      // A repeat inside the run would conflict with its first anyway: first occurrence wins.
      if (!nodes.has(key)) nodes.set(key, next.params);
      i += 1;
    }
    const nodeRun = [...nodes.values()];
    const rows = await run(firstSeq, 'insertNodes', () =>
      tx.query<{ level: string; sha256: string }>(sql.insertNodes, nodeColumns(project, nodeRun)),
    );
    const inserted = new Set(rows.map((r) => `${r.level}\u0000${r.sha256}`));
    for (const node of nodeRun)
      if (inserted.has(nodeKey(node)))
        created.push({
          level: node.level,
          sha256: node.sha256,
          seq: node.seq,
          texts: vectorTexts(node),
        });
  }
  if (signatures.length > 0) {
    const folds = foldSignatures(signatures);
    const column = <K extends keyof SignatureFold>(key: K) => folds.map((f) => f[key]);
    await run(writes[writes.length - 1]!.seq, 'foldSignatures', () =>
      tx.query(sql.foldSignatures, [
        project,
        column('sig_sha'),
        column('signature'),
        column('tool'),
        column('raw'),
        column('node_level'),
        column('node_sha'),
        column('count'),
        column('first_seen'),
        column('last_seen'),
      ]),
    );
  }
  return created;
}

function nodeKey(node: NodeParams): string {
  return `${node.level}\u0000${node.sha256}`;
}

function nodeColumns(project: string, nodes: readonly NodeParams[]): unknown[] {
  return [
    project,
    nodes.map((n) => n.level),
    nodes.map((n) => n.sha256),
    nodes.map((n) => n.kind),
    nodes.map((n) => n.run_id),
    nodes.map((n) => n.t),
    nodes.map((n) => n.source),
    nodes.map((n) => n.text),
    nodes.map((n) => n.symptom),
    nodes.map((n) => n.seq),
    nodes.map((n) => n.ts),
  ];
}

function linesColumns(p: LinesParams): unknown[] {
  return [
    p.project,
    p.level,
    p.memory_sha,
    p.lines.map((l) => l.sha256),
    p.lines.map((l) => l.text),
    p.symptom,
    p.seq,
  ];
}

/** Positional parameters of every statement but insertNode and insertLines, in its SQL's $n order. */
function paramsOf(
  write: Exclude<
    PlannedWrite,
    {
      statement:
        | 'insertNode'
        | 'foldSignature'
        | 'insertLines'
        | 'insertSuccessorLines'
        | 'insertAddedLine'
        | 'insertItem'
        | 'updateItemText';
    }
  >,
): unknown[] {
  switch (write.statement) {
    case 'insertRun': {
      const p = write.params;
      return [p.project, p.run_id, p.level, p.query_id];
    }
    case 'advanceChain': {
      const p = write.params;
      return [p.project, p.level, p.run_id, p.sha256, p.seq];
    }
    case 'insertEdges': {
      const p = write.params;
      return [p.project, p.child_level, p.child_sha, p.preferred_level, p.parents];
    }
    case 'applyTombstone': {
      const p = write.params;
      return [p.project, p.target, p.reason, p.seq, p.ts];
    }
    case 'refreshLines': {
      const p = write.params;
      return [p.project, p.shas];
    }
    case 'forget': {
      const p = write.params;
      return [p.project, p.target, p.target_kind, p.lines, p.ts];
    }
    case 'supersede': {
      const p = write.params;
      return [p.project, p.target, p.target_kind, p.after_sha256];
    }
    case 'holdSuccessors': {
      const p = write.params;
      return [p.project, p.level, p.memory_sha, p.shas];
    }
    case 'setItemAttention': {
      const p = write.params;
      return [p.project, p.id, p.archived];
    }
    case 'deleteItem': {
      const p = write.params;
      return [p.project, p.id, p.ts];
    }
  }
}

/**
 * The text an item write leaves and its vector literal; nulls for a write naming no item. A
 * text the batch did not embed is a fault of the shell, never skipped: the item would be
 * silently missing from vector recall.
 */
function itemVector(
  seq: number,
  write: ItemTextWrite,
  items: ItemVectors,
): [string | null, string | null] {
  const text = items.texts.get(write) ?? null;
  if (text === null) return [null, null];
  const vector = items.embeddings.get(text);
  if (!vector)
    throw new MemError(
      'PROJECTION_FAILED',
      `seq ${seq}: item ${write.params.id} text not embedded`,
      {
        seq,
        statement: write.statement,
      },
    );
  return [text, vectorLiteral(vector)];
}

/** Runs one statement; a database error becomes PROJECTION_FAILED naming the event and statement. */
export async function run<T>(seq: number, statement: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (isMemError(error)) throw error;
    throw new MemError(
      'PROJECTION_FAILED',
      `seq ${seq}: ${statement} failed: ${(error as Error).message}`,
      { seq, statement, sqlState: sqlState(error) },
      { cause: error },
    );
  }
}

/** A line created at each of `rows`' levels, to be embedded by its text alone (no symptom). */
function textVectorsAt(
  rows: readonly { level: string }[],
  sha256: string,
  seq: number,
  text: string,
) {
  return rows.map((row) => ({
    level: row.level,
    sha256,
    seq,
    texts: lineVectorTexts({ text }, null),
  }));
}
