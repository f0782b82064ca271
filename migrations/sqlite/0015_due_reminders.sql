-- Issue 13: orient's due reminders, the unresolved live ones alone, in the order it lists them
-- and with the status it shows: its count and the entries that fit its cap are read from this
-- index only (item_live_reminder also held resolved reminders and sent each to its row).
DROP INDEX item_live_reminder;
-- type and deleted_at are constant here, carried so the index covers its own WHERE (SQLite
-- reads a partial index's WHERE columns from the row otherwise).
CREATE INDEX item_due_reminder ON item (project, remind_at, id, status, type, deleted_at)
  WHERE type = 'reminder' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'));
