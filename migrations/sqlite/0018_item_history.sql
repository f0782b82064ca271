-- Issue 13 §2: what `mem history it-…` lists, one row per event that changed an item (added,
-- updated and confirmed, resolved, related, unrelated, deleted, filed by attention, pinned,
-- unpinned), with who wrote it (principal, token label) and why. Filled by the projector, so
-- history reads the item's rows instead of folding the project's log. An event naming an item
-- the project never added writes no row (the fold it replaces skipped those too).
CREATE TABLE item_history (
  project TEXT    NOT NULL,
  id      TEXT    NOT NULL,
  seq     INTEGER NOT NULL,
  ts      TEXT    NOT NULL,
  type    TEXT    NOT NULL,
  actor   TEXT,
  token   TEXT,
  reason  TEXT,
  PRIMARY KEY (project, id, seq)
) WITHOUT ROWID;
