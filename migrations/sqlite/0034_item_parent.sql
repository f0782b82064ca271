-- Stop 34, issue 13 §6 (add_items(100) at 100 k): an item's parent is a column of its row, not
-- an edge of kind 'parent'. Of a 100-item commit's ~604 WAL pages, the edge table took 145 and
-- edge_by_parent 42, almost all the parent edge each new task wrote. An item has one parent (the
-- operations refuse a second and any cycle), so the column holds it: NULL when it has none. The
-- children of a parent are item_by_parent's range, by id (the primary key every index of this
-- WITHOUT ROWID table ends in): their rows are then read along item's key, as the edge's index
-- gave them. By creation instead (project, parent, created_seq), a new child was appended to its
-- parent's range, but a find over 12 k children read their rows in random id order: ~190 ms CPU
-- against ~160 by id (and ~167 by edge), load 9. Anchors, blocked_by and links stay edges.
ALTER TABLE item ADD COLUMN parent TEXT;
UPDATE item SET parent = (SELECT min(e.parent_sha) FROM edge e WHERE e.project = item.project
  AND e.child_level = 'I' AND e.child_sha = item.id AND e.parent_level = 'I' AND e.kind = 'parent');
DELETE FROM edge WHERE child_level = 'I' AND parent_level = 'I' AND kind = 'parent';
CREATE INDEX item_by_parent ON item (project, parent) WHERE parent IS NOT NULL;
