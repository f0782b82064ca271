-- Issue 12 §2: who superseded a line and why, beside the successor it points to, so a query
-- that shows history (include_superseded) marks a superseded line from this row alone — also
-- when its successor is a line that existed before (superseded by another line's ref), whose
-- own row does not name the correction.
ALTER TABLE superseded_line ADD COLUMN actor TEXT;
ALTER TABLE superseded_line ADD COLUMN reason TEXT NOT NULL DEFAULT '';
