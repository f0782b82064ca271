-- Issue 13 §6: a keyword find counts its exact total inside FTS5. item_fts indexes each item's
-- node text (`text`, node_fts's tokenizer) beside its scope (`scope`: project, liveness,
-- attention tier, type and status as tokens, item-fts.ts), so the find's filters are terms of
-- the MATCH and count(*) reads postings, never an item row. Contentless: node holds the text.
-- Ranking stays on node_fts (its BM25 statistics cover every node). Kept in step by the
-- writing connection's TEMP triggers (item-fts.ts) and built afresh in the canonical copy's
-- scratch file (fts-build.ts); the projector's version bump replays older stores.
CREATE VIRTUAL TABLE item_fts USING fts5 (
  text,
  scope,
  content = '',
  contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);

-- What a keyword find's freshness holds back is counted from the rows that can be held (an
-- expiry, a review date, work left open), each then matched by rowid: never every match.
CREATE INDEX item_expiring ON item (project, valid_until) WHERE valid_until IS NOT NULL;
CREATE INDEX item_review_due ON item (project, review_after) WHERE review_after IS NOT NULL;
CREATE INDEX item_open_work ON item (project, created_ts)
  WHERE type IN ('task', 'thread') AND (status IS NULL OR status NOT IN ('done', 'dropped'));

-- orient's due reminders: the summary in the index too, so the reminders read to order a run of
-- one instant (a day's worth) cost no row each (migration 0019's index otherwise).
DROP INDEX item_due_reminder;
CREATE INDEX item_due_reminder ON item (project, remind_at, id, status, type, deleted_at, attention, summary)
  WHERE type = 'reminder' AND deleted_at IS NULL AND (status IS NULL OR status NOT IN ('done', 'dropped'))
    AND attention <> 'archive';
