-- Issue 13 (stop 34's walk): a cited transcript record rewritten in letter case or whitespace
-- only was not stale, as a chunk's sha256 is its content identity (normalised text). The sha256
-- of the chunk's bytes as packed, from the chunk event (absent in older logs: NULL), is what
-- grounding compares where it is known.
ALTER TABLE chunk ADD COLUMN bytes_sha256 TEXT;
