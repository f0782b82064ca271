-- Stop 33: orient counts each read project's open review findings by kind. review_finding_open
-- (project, seq) holds no kind, and with no statistics the planner scans the primary key, decided
-- findings included. A partial index on (project, kind, decision) answers the count from the
-- index alone (a covering index): decision is in it because SQLite reads every column the query
-- names from the index or the table, the partial index's own WHERE included; on (project, kind)
-- alone each open row was looked up in the table (1.69 vs 0.42 ms CPU at 30,000 findings).
CREATE INDEX review_finding_open_kind ON review_finding (project, kind, decision) WHERE decision IS NULL;
