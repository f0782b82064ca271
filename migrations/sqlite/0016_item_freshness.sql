-- Freshness inputs of curated knowledge (issue 13 §4, seed 004): a review date, past which a
-- fact or rule is stale until a person confirms it, and a cited source (a path or URI and the
-- sha256 its bytes had when written). The verdict is derived at read time, never stored.
ALTER TABLE item ADD COLUMN review_after TEXT;
ALTER TABLE item ADD COLUMN source_uri TEXT;
ALTER TABLE item ADD COLUMN source_sha256 TEXT;
