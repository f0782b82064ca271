import { createHash } from 'node:crypto';
import type { SqlClient } from './backend/sql.js';
import { quoteIdent } from './schema/identifiers.js';

/**
 * Per table: the columns of a row (as SQL expressions) and its total order, sha first. Vectors
 * enter as their exact float32 bytes (pgvector's binary send form, in hex); text keys sort
 * byte-wise (COLLATE "C"), so no locale of either server shapes the order.
 */
const TABLES: Readonly<Record<string, { columns: string[]; order: string[] }>> = {
  failure_signature: {
    columns: [
      'project',
      'sig_sha',
      'signature',
      'tool',
      'raw',
      'node_level',
      'node_sha',
      'seen_count',
      'first_seen',
      'last_seen',
    ],
    order: ['sig_sha', 'project'],
  },
  memory_edge: {
    columns: ['project', 'child_level', 'child_sha', 'parent_level', 'parent_sha'],
    order: ['child_sha', 'parent_sha', 'project', 'child_level'],
  },
  memory_head: {
    columns: ['project', 'level', 'query_key', 'sha256', 'seq'],
    order: ['query_key', 'project', 'level'],
  },
  memory_node: {
    columns: [
      'project',
      'level',
      'sha256',
      'kind',
      'query_id',
      'run_id',
      't',
      'source',
      'text',
      'symptom',
      'seq',
      'created_ts',
      'superseded_by',
      'deleted_at',
    ],
    order: ['sha256', 'project', 'level'],
  },
  memory_item: {
    columns: ['project', 'id', 'sha256', 'summary', 'detail', 'archived', 'seq', 'deleted_at'],
    order: ['id', 'project'],
  },
  memory_line: {
    columns: [
      'project',
      'level',
      'sha256',
      'text',
      'symptom',
      'seq',
      'superseded_by',
      'deleted_at',
    ],
    order: ['sha256', 'project', 'level'],
  },
  memory_line_edge: {
    columns: ['project', 'level', 'line_sha', 'memory_sha'],
    order: ['line_sha', 'memory_sha', 'project', 'level'],
  },
  memory_line_successor: {
    columns: ['project', 'level', 'sha256', 'supersedes'],
    order: ['supersedes', 'project', 'level'],
  },
  memory_run: { columns: ['project', 'run_id', 'level', 'query_id'], order: ['run_id', 'project'] },
  memory_supersede: {
    columns: ['project', 'level', 'old_sha', 'new_sha', 'reason', 'seq'],
    order: ['old_sha', 'new_sha', 'project', 'level'],
  },
  memory_tombstone: {
    columns: ['project', 'target', 'reason', 'seq', 'ts'],
    order: ['target', 'project'],
  },
  memory_vector: {
    columns: [
      'project',
      'level',
      'node_sha',
      'kind',
      'live',
      `encode(vector_send(embedding), 'hex')`,
    ],
    order: ['node_sha', 'project', 'level', 'kind'],
  },
  projection_state: { columns: ['project', 'last_seq', 'head'], order: ['project'] },
};

const FETCH = 2000;

/**
 * sha256 per table over its rows in their total order, one JSON array per row (Postgres's own
 * json_build_array, so both drivers hash the same text). Streamed through a cursor: one sort, no
 * table held in memory. memory_meta (configuration, not projection) is left out.
 */
export async function digestTables(
  client: SqlClient,
  schema: string,
): Promise<Record<string, string>> {
  const s = quoteIdent(schema);
  const out: Record<string, string> = {};
  for (const [table, { columns, order }] of Object.entries(TABLES)) {
    out[table] = await client.transaction(async (tx) => {
      const hash = createHash('sha256');
      await tx.exec(
        `DECLARE mem_digest NO SCROLL CURSOR FOR SELECT json_build_array(${columns.join(', ')})::text AS row FROM ${s}.${table} ORDER BY ${order.map((c) => `${c} COLLATE "C"`).join(', ')}`,
      );
      for (;;) {
        const rows = await tx.query<{ row: string }>(`FETCH ${FETCH} FROM mem_digest`);
        for (const { row } of rows) hash.update(`${row}\n`);
        if (rows.length < FETCH) break;
      }
      await tx.exec('CLOSE mem_digest');
      return hash.digest('hex');
    });
  }
  return out;
}
