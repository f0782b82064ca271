-- Issue 13: item reads (orient, open, read_items, find_items) answer from this table instead of
-- a fold of the log, so it holds what they show: updated_ts beside updated_seq (every item
-- event sets both, relations too: last activity counts them). Rows written before this
-- migration have no updated_ts; the projector's version bump replays the log into a new file.
ALTER TABLE item ADD COLUMN updated_ts TEXT NOT NULL DEFAULT '';
CREATE INDEX item_live_reminder ON item (project, remind_at) WHERE type = 'reminder' AND deleted_at IS NULL;
-- find_items' keyword query joins its FTS5 hits (node ids) to their items.
CREATE INDEX item_by_node ON item (node_id);
