-- Issue 13: orient reads totals the item writes keep, not a count over every item. The
-- connection's TEMP triggers (projector-sqlite orient-triggers.ts) keep both in step, so the
-- file's schema stays these migrations and the canonical copy copies the rows as they are.
-- How many anchor relations an item has: a rule or fact with none is always loaded.
ALTER TABLE item ADD COLUMN anchor_count INTEGER NOT NULL DEFAULT 0;
UPDATE item SET anchor_count = (SELECT count(*) FROM edge e WHERE e.project = item.project
  AND e.child_level = 'I' AND e.child_sha = item.id AND e.parent_level = 'I' AND e.kind = 'anchor');
-- T0's rules and facts: a range of this index, in the order T0 lists them.
CREATE INDEX item_unanchored ON item (project, type, created_seq, id)
  WHERE anchor_count = 0 AND deleted_at IS NULL;
-- Live items per tag: T0's tag section reads the vocabulary, not every tagging.
CREATE TABLE item_tag_count (
  project TEXT    NOT NULL,
  tag     TEXT    NOT NULL,
  count   INTEGER NOT NULL,
  PRIMARY KEY (project, tag)
) WITHOUT ROWID;
INSERT INTO item_tag_count (project, tag, count)
  SELECT t.project, t.tag, count(*) FROM item_tag t
  JOIN item i ON i.project = t.project AND i.id = t.id
  WHERE i.deleted_at IS NULL GROUP BY t.project, t.tag ORDER BY t.project, t.tag;
-- Each item's tree as slim entries show it: its last activity (the latest write to it or to a
-- live item under it, as `updated_ts US %016d updated_seq`, ordered as text) and its
-- unresolved live descendants. A deleted item ends its branch. Rows written before this
-- migration start empty; the projector's version bump replays the log into a new file.
ALTER TABLE item ADD COLUMN tree_activity TEXT NOT NULL DEFAULT '';
ALTER TABLE item ADD COLUMN tree_open INTEGER NOT NULL DEFAULT 0;
-- Live items per project: T0's project section reads one row per project.
CREATE TABLE item_live_count (
  project TEXT    PRIMARY KEY,
  items   INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO item_live_count (project, items)
  SELECT project, count(*) FROM item WHERE deleted_at IS NULL GROUP BY project ORDER BY project;
-- T0's threads: the open ones alone, whatever else the project holds.
CREATE INDEX item_open_thread ON item (project, id)
  WHERE type = 'thread' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'));
