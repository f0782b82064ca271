-- The memories a memory superseded, by its sha: refreshLines reads their lines when a chain
-- moves or its head is tombstoned. Without it, finding them read every line_edge row of the
-- project (an OR on sha256 and superseded_by that no index served).
CREATE INDEX node_superseded_memory ON node (project, superseded_by) WHERE kind = 'memory' AND superseded_by IS NOT NULL;
