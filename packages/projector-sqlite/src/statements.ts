import type { StatementName } from './planned-write.js';

/**
 * SQL of every statement a planned write can name. Lookups that depend on what is already
 * applied (a run's query, a parent's level, an earlier tombstone) are subqueries here, so the
 * planner stays a pure function of one event. Every lookup stays inside the event's project:
 * a project's rows depend only on its own log, whatever order projects are applied in.
 */
export const STATEMENT_SQL: Readonly<Record<StatementName, string>> = {
  // First occurrence wins. The conflict target is the identity key, so an id collision with a
  // different key still raises SQLITE_CONSTRAINT_PRIMARYKEY (mapped to CONFLICT by the shell).
  insertNode: `
    INSERT INTO node (id, project, level, kind, query_id, run_id, t, source, text, sha256, seq, created_ts, superseded_by, deleted_at, meta)
    VALUES (
      @id, @project, @level, @kind,
      (SELECT query_id FROM run WHERE project = @project AND run_id = @run_id),
      @run_id, @t, @source, @text, @sha256, @seq, @ts, NULL,
      (SELECT ts FROM tombstone WHERE project = @project AND target = @sha256),
      @meta)
    ON CONFLICT (project, sha256, level, kind) DO NOTHING`,

  // A memory replaces the previous head of its query's chain (same project, level and query):
  // that node is superseded, unless it is still the head of another query's chain.
  supersedeMemoryChain: `
    UPDATE node SET superseded_by = @sha256
    WHERE project = @project AND level = @level AND kind = 'memory' AND superseded_by IS NULL
      AND sha256 <> @sha256
      AND sha256 = (SELECT h.sha256 FROM memory_head h WHERE h.project = @project AND h.level = @level
                    AND h.query_key = COALESCE((SELECT query_id FROM run WHERE project = @project AND run_id = @run_id), ''))
      AND NOT EXISTS (SELECT 1 FROM memory_head h WHERE h.project = @project AND h.level = @level AND h.sha256 = node.sha256
                      AND h.query_key <> COALESCE((SELECT query_id FROM run WHERE project = @project AND run_id = @run_id), ''))`,

  setMemoryHead: `
    INSERT INTO memory_head (project, level, query_key, sha256, seq)
    VALUES (@project, @level, COALESCE((SELECT query_id FROM run WHERE project = @project AND run_id = @run_id), ''), @sha256, @seq)
    ON CONFLICT (project, level, query_key) DO UPDATE SET sha256 = excluded.sha256, seq = excluded.seq`,

  // A memory that returns to an earlier text makes that node current again.
  reinstateMemory: `
    UPDATE node SET superseded_by = NULL
    WHERE project = @project AND sha256 = @sha256 AND level = @level AND kind = 'memory' AND superseded_by IS NOT NULL`,

  // The parent's level is resolved now: the preferred level if a node has it, else any level
  // the sha exists at (e.g. R, which mem verify flags), else the preferred level, dangling.
  insertEdge: `
    INSERT INTO edge (project, child_level, child_sha, parent_level, parent_sha, kind)
    VALUES (
      @project, @child_level, @child_sha,
      COALESCE(
        (SELECT level FROM node WHERE project = @project AND sha256 = @parent_sha AND kind <> 'line'
         ORDER BY level = @preferred_level DESC, level LIMIT 1),
        @preferred_level),
      @parent_sha, 'provenance')
    ON CONFLICT DO NOTHING`,

  // A fold in log order: the count adds up, the first occurrence keeps first_seen, the latest
  // names the line, the memory and last_seen.
  foldSignature: `
    INSERT INTO failure_signature (project, sig_sha, signature, tool, level, line_sha, memory_sha, seen_count, first_seen, last_seen)
    VALUES (@project, @sig_sha, @signature, @tool, @level, @line_sha, @memory_sha, 1, @ts, @ts)
    ON CONFLICT (project, sig_sha) DO UPDATE SET
      seen_count = seen_count + 1, level = excluded.level,
      line_sha = excluded.line_sha, memory_sha = excluded.memory_sha, last_seen = excluded.last_seen`,

  insertLineEdge: `
    INSERT INTO line_edge (project, level, line_sha, kind, target_sha)
    VALUES (@project, @level, @line_sha, @kind, @target_sha)
    ON CONFLICT DO NOTHING`,

  // A line is live exactly while some memory holding it is a live head (not superseded, not
  // tombstoned). Otherwise its superseded_by names the latest (by seq) memory holding it: the
  // one whose retirement retired it. Run after a memory's chain moved (the lines of the new
  // head and of the memories it superseded) and after a tombstone (the lines of its target).
  // A line's own tombstone is deleted_at, as for every node. The lines to refresh are two
  // indexed lookups: the memory's own lines, and the lines of the memories it superseded
  // (node_superseded_memory); one OR over both read every line_edge row of the project.
  refreshLines: `
    WITH touched (level, line_sha) AS (
      SELECT e.level, e.line_sha FROM node m CROSS JOIN line_edge e
      WHERE m.project = @project AND m.sha256 = @sha256 AND m.kind = 'memory'
        AND e.project = m.project AND e.level = m.level AND e.target_sha = m.sha256 AND e.kind = 'memory'
      UNION
      SELECT e.level, e.line_sha FROM node m CROSS JOIN line_edge e
      WHERE m.project = @project AND m.superseded_by = @sha256 AND m.kind = 'memory'
        AND e.project = m.project AND e.level = m.level AND e.target_sha = m.sha256 AND e.kind = 'memory')
    UPDATE node SET superseded_by = CASE
      WHEN EXISTS (SELECT 1 FROM superseded_line s WHERE s.project = node.project AND s.sha256 = node.sha256 AND s.target_kind = 'line')
        THEN (SELECT s.after_sha256 FROM superseded_line s WHERE s.project = node.project AND s.sha256 = node.sha256 AND s.target_kind = 'line')
      WHEN EXISTS (SELECT 1 FROM line_edge e JOIN node m ON m.project = e.project AND m.level = e.level AND m.sha256 = e.target_sha AND m.kind = 'memory'
                   WHERE e.project = node.project AND e.level = node.level AND e.line_sha = node.sha256 AND e.kind = 'memory'
                     AND m.superseded_by IS NULL AND m.deleted_at IS NULL) THEN NULL
      ELSE (SELECT m.sha256 FROM line_edge e JOIN node m ON m.project = e.project AND m.level = e.level AND m.sha256 = e.target_sha AND m.kind = 'memory'
            WHERE e.project = node.project AND e.level = node.level AND e.line_sha = node.sha256 AND e.kind = 'memory'
            ORDER BY m.seq DESC, m.sha256 LIMIT 1)
    END
    WHERE project = @project AND kind = 'line' AND (level, sha256) IN (SELECT level, line_sha FROM touched)`,

  // run and run_end each fill their half of the row; the first of each wins.
  startRun: `
    INSERT INTO run (project, run_id, level, query_id, input_level, model, chunk_tokens, memory_budget, exit_gate, started_seq, started_ts)
    VALUES (@project, @run_id, @level, @query_id, @input_level, @model, @chunk_tokens, @memory_budget, @exit_gate, @seq, @ts)
    ON CONFLICT (project, run_id) DO UPDATE SET
      level = excluded.level, query_id = excluded.query_id, input_level = excluded.input_level,
      model = excluded.model, chunk_tokens = excluded.chunk_tokens, memory_budget = excluded.memory_budget,
      exit_gate = excluded.exit_gate, started_seq = excluded.started_seq, started_ts = excluded.started_ts
    WHERE run.started_seq IS NULL`,

  endRun: `
    INSERT INTO run (project, run_id, level, chunks_seen, chunks_used, final_memory_sha, error, ended_seq, ended_ts)
    VALUES (@project, @run_id, @level, @chunks_seen, @chunks_used, @final_memory_sha, @error, @seq, @ts)
    ON CONFLICT (project, run_id) DO UPDATE SET
      chunks_seen = excluded.chunks_seen, chunks_used = excluded.chunks_used,
      final_memory_sha = excluded.final_memory_sha, error = excluded.error,
      ended_seq = excluded.ended_seq, ended_ts = excluded.ended_ts
    WHERE run.ended_seq IS NULL`,

  insertChunk: `
    INSERT INTO chunk (project, run_id, t, level, source, span_start, span_end, sha256, bytes_sha256, seq)
    VALUES (@project, @run_id, @t, @level, @source, @span_start, @span_end, @sha256, @bytes_sha256, @seq)
    ON CONFLICT DO NOTHING`,

  insertGate: `
    INSERT INTO gate (project, run_id, t, level, "update", "exit", think, latency_ms, seq)
    VALUES (@project, @run_id, @t, @level, @update, @exit, @think, @latency_ms, @seq)
    ON CONFLICT DO NOTHING`,

  insertTombstone: `
    INSERT INTO tombstone (project, target, reason, seq, ts)
    VALUES (@project, @target, @reason, @seq, @ts)
    ON CONFLICT DO NOTHING`,

  // deleted_at comes from the stored (first) tombstone, not from this event.
  applyTombstone: `
    UPDATE node SET deleted_at = (SELECT ts FROM tombstone WHERE project = @project AND target = @target)
    WHERE project = @project AND sha256 = @target AND deleted_at IS NULL`,

  // The review queue (issue 12 §4): a finding is opened once and decided once; the first wins.
  openReview: `
    INSERT INTO review_finding (project, id, kind, subjects, explanation, seq, opened_by)
    VALUES (@project, @id, @kind, @subjects, @explanation, @seq, @opened_by)
    ON CONFLICT DO NOTHING`,

  // Issue 13 §2: the newest record of a key wins (a key reused after it expired records again).
  recordIdempotency: `
    INSERT INTO idempotency_key (key_sha256, project, fingerprint, op, first_seq, last_seq, ts, seq)
    VALUES (@key_sha256, @project, @fingerprint, @op, @first_seq, @last_seq, @ts, @seq)
    ON CONFLICT (key_sha256, project) DO UPDATE SET fingerprint = excluded.fingerprint,
      op = excluded.op, first_seq = excluded.first_seq, last_seq = excluded.last_seq,
      ts = excluded.ts, seq = excluded.seq`,

  decideReview: `
    UPDATE review_finding SET decision = @decision, decided_seq = @seq
    WHERE project = @project AND id = @id AND decision IS NULL`,

  // Corrections (issue 12). The first forgetting of a line wins; a forgotten memory is deleted
  // as of its forgotten event unless a tombstone deleted it first, and keeps no text.
  forgetLine: `
    INSERT INTO forgotten_line (project, sha256, target, seq) VALUES (@project, @sha256, @target, @seq)
    ON CONFLICT DO NOTHING`,

  forgetMemory: `
    UPDATE node SET deleted_at = COALESCE(deleted_at, @ts), text = ''
    WHERE project = @project AND sha256 = @target AND kind = 'memory'`,

  supersedeLine: `
    INSERT INTO superseded_line (project, sha256, target_kind, after_sha256, seq, actor, reason)
    VALUES (@project, @sha256, @target_kind, @after_sha256, @seq, @actor, @reason)
    ON CONFLICT DO NOTHING`,

  // A forgotten line's node leaves every read path at once, at every level it was held, and
  // keeps no copy of its text (the log does, until a purge).
  forgetLineNode: `
    UPDATE node SET deleted_at = COALESCE(deleted_at, @ts), text = ''
    WHERE project = @project AND kind = 'line' AND sha256 = @sha256`,

  // Every memory row holding a forgotten line stores its text without it (and its meta's
  // lines without its entry, so they stay one per line of text): the row, FTS and any read of
  // it hold only what is still remembered.
  forgetMemoryLines: `
    UPDATE node SET text = mem_text_without_lines(text, @shas), meta = mem_meta_without_lines(meta, @shas)
    WHERE project = @project AND kind = 'memory' AND (level, sha256) IN (
      SELECT e.level, e.target_sha FROM line_edge e
      WHERE e.project = @project AND e.kind = 'memory' AND e.line_sha IN (SELECT value FROM json_each(@shas)))`,

  // A correction changes the words, not the evidence: the successor text of a superseded line
  // is a line node of its own at the old line's level, run and place, live as the old line was
  // then. Only the winning (first) supersession of the line makes one; an existing line of that
  // text (superseded by another line's ref) keeps its own row.
  insertSuccessorLine: `
    INSERT INTO node (id, project, level, kind, query_id, run_id, t, source, text, sha256, seq, created_ts, superseded_by, deleted_at, meta)
    SELECT @id, o.project, o.level, 'line', o.query_id, o.run_id, o.t, o.source, @text, @after_sha256, @seq, @ts, o.superseded_by,
      (SELECT ts FROM tombstone WHERE project = @project AND target = @after_sha256), @meta
    FROM node o
    WHERE o.project = @project AND o.level = @level AND o.kind = 'line' AND o.sha256 = @sha256 AND o.deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM superseded_line s WHERE s.project = @project AND s.sha256 = @sha256 AND s.seq = @seq)
    ON CONFLICT (project, sha256, level, kind) DO NOTHING`,

  // A line added in the vault: held by no memory, so refreshLines never retires it; live unless
  // a tombstone already refuses its text. An existing line of that text keeps its own row.
  insertAddedLine: `
    INSERT INTO node (id, project, level, kind, query_id, run_id, t, source, text, sha256, seq, created_ts, superseded_by, deleted_at, meta)
    VALUES (@id, @project, @level, 'line', @query_id, NULL, NULL, NULL, @text, @sha256, @seq, @ts, NULL,
      (SELECT ts FROM tombstone WHERE project = @project AND target = @sha256), @meta)
    ON CONFLICT (project, sha256, level, kind) DO NOTHING`,

  // The successor made by this event cites what the old line cited and is held by the memories
  // that held it (so its note and liveness follow theirs).
  copySuccessorEdges: `
    INSERT INTO line_edge (project, level, line_sha, kind, target_sha)
    SELECT e.project, e.level, @after_sha256, e.kind, e.target_sha FROM line_edge e
    WHERE e.project = @project AND e.level = @level AND e.line_sha = @sha256
      AND EXISTS (SELECT 1 FROM node n WHERE n.project = @project AND n.level = @level AND n.kind = 'line'
                  AND n.sha256 = @after_sha256 AND n.seq = @seq)
    ON CONFLICT DO NOTHING`,

  // A later memory that still holds a superseded line holds its successors (each made by its
  // supersession, transitively: a successor superseded in turn hands on to the next), so a
  // chain's next version keeps the correction live and refreshLines reads them with its lines.
  holdSuccessors: `
    WITH RECURSIVE successor (sha, seq) AS (
      SELECT after_sha256, seq FROM superseded_line
      WHERE project = @project AND sha256 = @line_sha AND target_kind = 'line'
      UNION
      SELECT s.after_sha256, s.seq FROM superseded_line s JOIN successor ON s.sha256 = successor.sha
      WHERE s.project = @project AND s.target_kind = 'line')
    INSERT INTO line_edge (project, level, line_sha, kind, target_sha)
    SELECT @project, @level, successor.sha, 'memory', @memory_sha FROM successor
    WHERE EXISTS (SELECT 1 FROM node n WHERE n.project = @project AND n.level = @level AND n.kind = 'line'
                  AND n.sha256 = successor.sha AND n.seq = successor.seq)
    ON CONFLICT DO NOTHING`,

  // A superseded line points to its successor (refreshLines keeps it so while a head holds it):
  // the first supersession's, as superseded_line, pgvector and the vault keep. A log written
  // before a second supersede was refused may hold two; the later one changes nothing here.
  supersedeLineNode: `
    UPDATE node SET superseded_by = @after_sha256
    WHERE project = @project AND kind = 'line' AND sha256 = @sha256
      AND EXISTS (SELECT 1 FROM superseded_line s WHERE s.project = @project AND s.sha256 = @sha256 AND s.seq = @seq)`,

  supersedeMemory: `
    UPDATE node SET superseded_by = @after_sha256
    WHERE project = @project AND sha256 = @target AND kind = 'memory' AND superseded_by IS NULL`,

  // Curated items (issue 13). Each item_added is a new item (its id is its event's), so
  // conflicts only guard a hand-made log; every later event names an item by id. The row is
  // also the item's "added" history entry (migration 0030): who added it and why.
  insertItem: `
    INSERT INTO item (project, id, node_id, type, parent, status, summary, detail, due, remind_at, valid_until, review_after, source_uri, source_sha256, from_line, deleted_at, created_seq, created_ts, updated_seq, updated_ts, tree_activity, opened_ts, added_actor, added_token, added_reason)
    VALUES (@project, @id, @node_id, @type, @parent, @status, @summary, @detail, @due, @remind_at, @valid_until, @review_after, @source_uri, @source_sha256, @from_line, NULL, @seq, @ts, @seq, @ts,
      @ts || char(31) || printf('%016d', @seq), CASE WHEN @type IN ('task', 'thread') THEN @ts END, @actor, @token, @reason)
    ON CONFLICT DO NOTHING`,

  updateItem: `
    UPDATE item SET
      summary = coalesce(@summary, summary), detail = coalesce(@detail, detail),
      status = coalesce(@status, status), due = coalesce(@due, due),
      remind_at = coalesce(@remind_at, remind_at), valid_until = coalesce(@valid_until, valid_until),
      review_after = coalesce(@review_after, review_after), source_uri = coalesce(@source_uri, source_uri),
      source_sha256 = coalesce(@source_sha256, source_sha256),
      -- Work set open or in progress from a status that is neither (proposed) is open from
      -- now (migration 0027); open and in progress are both open work, so moving between them
      -- keeps the instant (a proposal taken straight to in progress opens it too).
      opened_ts = CASE WHEN @status IN ('open', 'in_progress')
          AND coalesce(status, '') NOT IN ('open', 'in_progress') AND type IN ('task', 'thread')
        THEN @ts ELSE opened_ts END,
      updated_seq = @seq, updated_ts = @ts
    WHERE project = @project AND id = @id`,

  // The node's text is what the keyword index reads: the summary, then the detail.
  refreshItemText: `
    UPDATE node SET text = (
      SELECT i.summary || coalesce(char(10, 10) || i.detail, '') FROM item i WHERE i.project = @project AND i.id = @id)
    WHERE id = (SELECT node_id FROM item WHERE project = @project AND id = @id)`,

  insertItemTag: `
    INSERT INTO item_tag (project, id, tag) VALUES (@project, @id, @tag) ON CONFLICT DO NOTHING`,

  clearItemTags: `DELETE FROM item_tag WHERE project = @project AND id = @id`,

  insertItemEdge: `
    INSERT INTO edge (project, child_level, child_sha, parent_level, parent_sha, kind)
    VALUES (@project, 'I', @item, 'I', @target, @relation)
    ON CONFLICT DO NOTHING`,

  deleteItemEdge: `
    DELETE FROM edge WHERE project = @project AND child_level = 'I' AND child_sha = @item
      AND parent_level = 'I' AND parent_sha = @target AND kind = @relation`,

  // An item's parent is its row's column (migration 0034). A relate sets it where the item has
  // none (the operations refuse a second parent; a hand-made log's second is ignored); an
  // unrelate clears it where it names the target.
  setItemParent: `
    UPDATE item SET parent = @parent WHERE project = @project AND id = @id AND parent IS NULL`,

  clearItemParent: `
    UPDATE item SET parent = NULL WHERE project = @project AND id = @id AND parent = @parent`,

  // A relation added or removed is activity on the item (what orient's recency orders by).
  touchItem: `
    UPDATE item SET updated_seq = @seq, updated_ts = @ts WHERE project = @project AND id = @id`,

  // Attention and pins file an item; they are no activity, so updated_seq stays (issue 13 §5).
  setItemAttention: `
    UPDATE item SET attention = @attention WHERE project = @project AND id = @id`,

  setItemPinned: `
    UPDATE item SET pinned = @pinned WHERE project = @project AND id = @id`,

  // A pin again replaces the row: the newest pin names who pinned it and why.
  pinLine: `
    INSERT OR REPLACE INTO line_pin (project, level, sha256, seq, actor, reason)
    VALUES (@project, @level, @sha256, @seq, @actor, @reason)`,

  clearLineConfirmation: `
    DELETE FROM line_confirmation WHERE project = @project AND line_sha = @line_sha`,

  confirmLine: `
    INSERT OR REPLACE INTO line_confirmation (project, line_sha, chunk_sha, digest, seq)
    VALUES (@project, @line_sha, @chunk_sha, @digest, @seq)`,

  // A replacement's confirmation (the event's cited digests) holds only for a successor line this
  // very supersession made (its node's seq is the event's): not for a second supersession of the
  // line (it makes none), nor for an existing line whose text the replacement repeats (that
  // line keeps its own confirmation, or none; the old line's chunks confirm nothing of it).
  clearSuccessorConfirmation: `
    DELETE FROM line_confirmation WHERE project = @project AND line_sha = @line_sha
      AND EXISTS (SELECT 1 FROM node n WHERE n.project = @project AND n.kind = 'line'
                  AND n.sha256 = @line_sha AND n.seq = @seq)`,

  confirmSuccessorLine: `
    INSERT OR REPLACE INTO line_confirmation (project, line_sha, chunk_sha, digest, seq)
    SELECT @project, @line_sha, @chunk_sha, @digest, @seq
    WHERE EXISTS (SELECT 1 FROM node n WHERE n.project = @project AND n.kind = 'line'
                  AND n.sha256 = @line_sha AND n.seq = @seq)`,

  unpinLine: `
    DELETE FROM line_pin WHERE project = @project AND level = @level AND sha256 = @sha256`,

  // Only for an item the project added: an event naming another id changes nothing, so it is no
  // history. Every event after the item_added one: that one's entry is the item row (insertItem).
  insertItemHistory: `
    INSERT INTO item_history (project, id, seq, ts, type, actor, token, reason, text, conversation, relation, other, side)
    SELECT @project, @id, @seq, @ts, @type, @actor, @token, @reason, @text, @conversation, @relation, @other, @side
    WHERE EXISTS (SELECT 1 FROM item WHERE project = @project AND id = @id)
    ON CONFLICT DO NOTHING`,

  resolveItem: `
    UPDATE item SET status = @status, updated_seq = @seq, updated_ts = @ts WHERE project = @project AND id = @id`,

  // A soft delete: the flag on the item and on its node, which every read path honours.
  deleteItem: `
    UPDATE item SET deleted_at = coalesce(deleted_at, @ts), updated_seq = @seq, updated_ts = @ts WHERE project = @project AND id = @id`,

  deleteItemNode: `
    UPDATE node SET deleted_at = coalesce(deleted_at, @ts) WHERE id = (SELECT node_id FROM item WHERE project = @project AND id = @id)`,

  // Identity (the `_system` log only). The first event of a name or token id wins; the
  // registry refuses duplicates before it appends, so these conflicts only guard a hand edit.
  addPrincipal: `
    INSERT INTO principal (name, added_seq, added_ts) VALUES (@name, @seq, @ts)
    ON CONFLICT DO NOTHING`,

  addProject: `
    INSERT INTO registered_project (name, added_seq, added_ts) VALUES (@name, @seq, @ts)
    ON CONFLICT DO NOTHING`,

  addMember: `
    INSERT INTO membership (project, principal, added_seq, added_ts) VALUES (@project, @principal, @seq, @ts)
    ON CONFLICT DO NOTHING`,

  removeMember: `
    DELETE FROM membership WHERE project = @project AND principal = @principal`,

  insertToken: `
    INSERT INTO token (token_id, label, principal, projects, capabilities, expires_at, secret_sha256, created_seq, created_ts, revoked_seq, revoked_ts, revoke_reason)
    VALUES (@token_id, @label, @principal, @projects, @capabilities, @expires_at, @secret_sha256, @seq, @ts, NULL, NULL, NULL)
    ON CONFLICT DO NOTHING`,

  // The first revocation wins; a later one of the same token changes nothing.
  revokeToken: `
    UPDATE token SET revoked_seq = @seq, revoked_ts = @ts, revoke_reason = @reason
    WHERE token_id = @token_id AND revoked_seq IS NULL`,

  // Ingest jobs: the first acceptance of an ingest_id (or job id) in a project wins.
  acceptIngest: `
    INSERT INTO ingest_job (project, job_id, ingest_id, source, format, records, accepted_seq, accepted_ts, principal, token_label,
                            status, chunks, appended, error, finished_seq, finished_ts)
    VALUES (@project, @job_id, @ingest_id, @source, @format, @records, @seq, @ts, @principal, @token_label,
            NULL, NULL, NULL, NULL, NULL, NULL)
    ON CONFLICT DO NOTHING`,

  finishIngest: `
    UPDATE ingest_job SET status = @status, chunks = @chunks, appended = @appended, skipped = @skipped, error = @error, finished_seq = @seq, finished_ts = @ts
    WHERE project = @project AND job_id = @job_id AND finished_seq IS NULL`,
};

/** Shell-only statements: position bookkeeping, never planned by an event. */
export const POSITION_SQL = {
  read: `SELECT last_seq AS seq, head FROM projection_state WHERE project = ?`,
  write: `
    INSERT INTO projection_state (project, last_seq, head) VALUES (@project, @seq, @head)
    ON CONFLICT (project) DO UPDATE SET last_seq = excluded.last_seq, head = excluded.head`,
} as const;
