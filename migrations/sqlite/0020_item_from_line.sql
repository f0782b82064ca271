-- Issue 13 §1: the memory line a fact or rule was promoted from (`mem remember --from-line`),
-- its item_added event's from_line as canonical JSON (line sha and level, memory, note, the
-- line's citations); NULL for an item written as itself.
ALTER TABLE item ADD COLUMN from_line TEXT;
