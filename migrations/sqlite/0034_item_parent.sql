-- Stop 34, issue 13 §6 (add_items(100) at 100 k): an item's parent is a column of its row, not
-- an edge of kind 'parent'. Of a 100-item commit's ~604 WAL pages, the edge table took 145 and
-- edge_by_parent 42, almost all the parent edge each new task wrote. An item has one parent (the
-- operations refuse a second and any cycle), so the column holds it: NULL when it has none. The
-- children of a parent are item_by_parent's range, by creation (what the cascades and `open` walk
-- in). Anchors, blocked_by and links stay edges.
ALTER TABLE item ADD COLUMN parent TEXT;
UPDATE item SET parent = (SELECT min(e.parent_sha) FROM edge e WHERE e.project = item.project
  AND e.child_level = 'I' AND e.child_sha = item.id AND e.parent_level = 'I' AND e.kind = 'parent');
DELETE FROM edge WHERE child_level = 'I' AND parent_level = 'I' AND kind = 'parent';
CREATE INDEX item_by_parent ON item (project, parent, created_seq) WHERE parent IS NOT NULL;
