-- Issue 13 §5: an archived item (attention tier `archive`) never appears in T0. orient's open
-- threads and due reminders are read from these partial indexes, so the tier joins their WHERE
-- (and, for the covering due-reminder index, its columns: SQLite reads a partial index's WHERE
-- columns from the row otherwise). T0's rules and facts filter the tier on the rows they read.
DROP INDEX item_open_thread;
CREATE INDEX item_open_thread ON item (project, id)
  WHERE type = 'thread' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'))
    AND attention <> 'archive';
DROP INDEX item_due_reminder;
CREATE INDEX item_due_reminder ON item (project, remind_at, id, status, type, deleted_at, attention)
  WHERE type = 'reminder' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'))
    AND attention <> 'archive';
