-- Issue 13 §6 (add_items at 100 k): an item's item_added event is its history's first entry,
-- and the item row already holds its seq and ts (created_seq, created_ts). Who added it and why
-- are kept on the row too, so the "added" entry is read from the item row and item_history
-- holds only the events after it: one row fewer per added item in a table keyed by the random
-- item id (~100 WAL pages of a 100-item commit). NULL when the event named none.
ALTER TABLE item ADD COLUMN added_actor TEXT;
ALTER TABLE item ADD COLUMN added_token TEXT;
ALTER TABLE item ADD COLUMN added_reason TEXT;
