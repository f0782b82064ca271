-- Issue 13 §1-2, seed 000 §6 `add_log`: an item_logged event is a history entry of its own, so
-- the row keeps what was logged (its text) and the conversation label the client gave (an
-- opaque string, seed 000 §6.3). NULL on every other event's row.
ALTER TABLE item_history ADD COLUMN text TEXT;
ALTER TABLE item_history ADD COLUMN conversation TEXT;
