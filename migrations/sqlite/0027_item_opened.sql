-- Issue 13 §4: an unresolved task or thread is open since it last became open, not since it
-- was created: a task proposed a year ago and opened yesterday is one day open. `opened_ts` is
-- the creation instant of a task or thread, moved to an item_updated's instant when it sets
-- status `open` on an item not open (NULL for knowledge and reminders, never open questions).
-- The projector's version bump replays older stores, so a store's proposed-then-opened tasks
-- get their opening instant from the log; the backfill only covers a store read before that.
ALTER TABLE item ADD COLUMN opened_ts TEXT;
UPDATE item SET opened_ts = created_ts WHERE type IN ('task', 'thread');

-- What a keyword find holds back as open too long is read from the work left open, by opening.
DROP INDEX item_open_work;
CREATE INDEX item_open_work ON item (project, opened_ts)
  WHERE type IN ('task', 'thread') AND (status IS NULL OR status NOT IN ('done', 'dropped'));
