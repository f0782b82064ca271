-- Stop 35, issue 13 (add_items(100) at 100 k): item is a rowid table keyed by its node id, and
-- (project, id) a unique index beside it. Keyed by (project, id), a hashed id, each of a batch's
-- 100 new rows landed on a random leaf of a table of ~14 rows a page, and SQLite's balance
-- rewrote that leaf, its siblings and their parent: ~490 of a commit's ~930 WAL pages (a store
-- just rebuilt). An item node's id is its seq's block slot and offset (itemNodeId), so a batch's
-- rows are neighbours at the end of their block: ~17 pages; the id index's entries are small
-- (~120 a page) and took ~150. item_by_node is the rowid itself now, and every other index ends
-- in the node id, so a parent's children (item_by_parent) come in creation order, their rows
-- neighbours too. The columns keep their order: `SELECT *` and the canonical copy are unchanged.
CREATE TABLE item_by_node_id (
  project      TEXT    NOT NULL,
  id           TEXT    NOT NULL,
  node_id      INTEGER PRIMARY KEY,
  type         TEXT    NOT NULL CHECK (type IN ('rule', 'fact', 'task', 'thread', 'reminder')),
  status       TEXT    CHECK (status IN ('proposed', 'open', 'in_progress', 'done', 'dropped')),
  summary      TEXT    NOT NULL,
  detail       TEXT,
  due          TEXT,
  remind_at    TEXT,
  valid_until  TEXT,
  deleted_at   TEXT,
  created_seq  INTEGER NOT NULL,
  created_ts   TEXT    NOT NULL,
  -- The seq of the last event that changed the item: what "recent activity" orders by.
  updated_seq  INTEGER NOT NULL,
  updated_ts   TEXT    NOT NULL DEFAULT '',
  anchor_count INTEGER NOT NULL DEFAULT 0,
  tree_activity TEXT   NOT NULL DEFAULT '',
  tree_open    INTEGER NOT NULL DEFAULT 0,
  review_after TEXT,
  source_uri   TEXT,
  source_sha256 TEXT,
  attention    TEXT    NOT NULL DEFAULT 'active' CHECK (attention IN ('active', 'reference', 'archive')),
  pinned       INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
  from_line    TEXT,
  opened_ts    TEXT,
  added_actor  TEXT,
  added_token  TEXT,
  added_reason TEXT,
  parent       TEXT
);
INSERT INTO item_by_node_id SELECT * FROM item ORDER BY node_id;
DROP TABLE item;
ALTER TABLE item_by_node_id RENAME TO item;
CREATE UNIQUE INDEX item_by_id ON item (project, id);
CREATE INDEX item_by_type ON item (project, type, status, created_seq);
CREATE INDEX item_unanchored ON item (project, type, created_seq, id)
  WHERE anchor_count = 0 AND deleted_at IS NULL;
CREATE INDEX item_open_thread ON item (project, tree_activity, id, type, deleted_at, status, attention)
  WHERE type = 'thread' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'))
    AND attention <> 'archive';
CREATE INDEX item_expiring ON item (project, valid_until) WHERE valid_until IS NOT NULL;
CREATE INDEX item_review_due ON item (project, review_after) WHERE review_after IS NOT NULL;
CREATE INDEX item_due_reminder ON item (project, remind_at, id, status, type, deleted_at, attention, summary)
  WHERE type = 'reminder' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'))
    AND attention <> 'archive';
CREATE INDEX item_open_work ON item (project, opened_ts)
  WHERE type IN ('task', 'thread') AND (status IS NULL OR status NOT IN ('done', 'dropped'));
CREATE INDEX item_by_parent ON item (project, parent) WHERE parent IS NOT NULL;
CREATE INDEX item_citing ON item (project, created_seq)
  WHERE source_uri IS NOT NULL AND source_sha256 IS NOT NULL;
