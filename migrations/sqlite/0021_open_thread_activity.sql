-- Issue 13 §6: orient lists open threads by most recent activity and stops at its byte cap, so
-- item_open_thread is ordered by tree_activity: the threads shown are the first rows of one index
-- range, and their total a count over it, however many threads are open. The WHERE columns are
-- in the index too, so the count reads no row (as item_due_reminder does).
DROP INDEX item_open_thread;
CREATE INDEX item_open_thread ON item (project, tree_activity, id, type, deleted_at, status, attention)
  WHERE type = 'thread' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'))
    AND attention <> 'archive';
