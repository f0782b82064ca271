-- Issue 13 §5: an item's attention tier and pin, from its item_attention_set, item_pinned and
-- item_unpinned events. Neither moves updated_seq: recency is what the item says, not how it is
-- filed. Rows written before this migration read the defaults (active, not pinned); the
-- projector's version bump replays the log into a new file.
ALTER TABLE item ADD COLUMN attention TEXT NOT NULL DEFAULT 'active' CHECK (attention IN ('active', 'reference', 'archive'));
ALTER TABLE item ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1));
