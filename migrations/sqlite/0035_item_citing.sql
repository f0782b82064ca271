-- Issue 13 §2: find_items' exact total when cited sources hold items back. Every match that
-- cites a source is judged (its file re-read) before the page's statement, which then leaves
-- the held ones out; the matches that cite are read from this range of the find's projects, so
-- a find over items that cite nothing reads no row for it.
CREATE INDEX item_citing ON item (project, created_seq)
  WHERE source_uri IS NOT NULL AND source_sha256 IS NOT NULL;
