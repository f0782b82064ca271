-- Issue 13 §1: `mem history it-…` names what an item_related or item_unrelated event did — the
-- relation (parent, anchor, blocked_by, link) and the other item — not only that it happened.
-- NULL on every other event's row.
ALTER TABLE item_history ADD COLUMN relation TEXT;
ALTER TABLE item_history ADD COLUMN other TEXT;
