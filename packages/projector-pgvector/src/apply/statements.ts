import type { StatementName } from '../plan/planned-write.js';
import { quoteIdent } from '../schema/identifiers.js';

/** Every planned statement but insertNode and foldSignature, which the shell sends in runs (insertNodes, foldSignatures); and the shell's own. */
export type StatementSql = Readonly<
  Record<
    | Exclude<StatementName, 'insertNode' | 'foldSignature'>
    | 'insertNodes'
    | 'foldSignatures'
    | 'insertVectors'
    | 'forgottenTexts'
    | 'storedItems'
    | 'readPosition'
    | 'writePosition'
    | 'lockProject',
    string
  >
>;

/**
 * The SQL the shell sends for each write, for the projection in `schema`: calls of the write
 * functions that migrations/postgres/0002_writes.sql defines there (planned once per session),
 * with positional parameters in the order run-writes.ts builds them.
 */
export function statementSql(schema: string): StatementSql {
  const s = quoteIdent(schema);
  return {
    lockProject: `SELECT pg_advisory_xact_lock(hashtext($1))`,
    readPosition: `SELECT last_seq AS seq, head FROM ${s}.projection_state WHERE project = $1`,
    writePosition: `SELECT ${s}.write_position($1, $2, $3)`,
    insertRun: `SELECT ${s}.insert_run($1, $2, $3, $4)`,
    insertNodes: `SELECT created_level AS level, created_sha AS sha256 FROM ${s}.insert_nodes($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    advanceChain: `SELECT ${s}.advance_chain($1, $2, $3, $4, $5)`,
    insertEdges: `SELECT ${s}.insert_edges($1, $2, $3, $4, $5)`,
    applyTombstone: `SELECT ${s}.apply_tombstone($1, $2, $3, $4, $5)`,
    foldSignatures: `SELECT ${s}.fold_signatures($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    insertVectors: `SELECT ${s}.insert_vectors($1, $2, $3, $4, $5)`,
    forgottenTexts: `SELECT DISTINCT text FROM ${s}.memory_line WHERE project = $1 AND sha256 = ANY($2) AND text <> '' ORDER BY text`,
    insertLines: `SELECT line_sha AS sha256, created FROM ${s}.insert_lines($1, $2, $3, $4, $5, $6, $7)`,
    refreshLines: `SELECT ${s}.refresh_lines($1, $2)`,
    forget: `SELECT ${s}.forget($1, $2, $3, $4, $5)`,
    supersede: `SELECT ${s}.supersede($1, $2, $3, $4)`,
    insertSuccessorLines: `SELECT created_level AS level FROM ${s}.insert_successor_lines($1, $2, $3, $4, $5)`,
    holdSuccessors: `SELECT ${s}.hold_successors($1, $2, $3, $4)`,
    insertAddedLine: `SELECT created_level AS level FROM ${s}.insert_added_line($1, $2, $3, $4, $5)`,
    storedItems: `SELECT id, summary, detail FROM ${s}.memory_item WHERE project = $1 AND id = ANY($2) ORDER BY id`,
    insertItem: `SELECT ${s}.insert_item($1, $2, $3, $4, $5, $6, $7, $8)`,
    updateItemText: `SELECT ${s}.update_item_text($1, $2, $3, $4, $5, $6)`,
    setItemAttention: `SELECT ${s}.set_item_attention($1, $2, $3)`,
    deleteItem: `SELECT ${s}.delete_item($1, $2, $3)`,
  };
}
