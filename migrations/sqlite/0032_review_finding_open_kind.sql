-- Stop 33: orient counts each read project's open review findings by kind. review_finding_open
-- (project, seq) holds no kind, and with no statistics the planner scans the primary key, decided
-- findings included. A partial index on (project, kind) answers the count from the index alone.
CREATE INDEX review_finding_open_kind ON review_finding (project, kind) WHERE decision IS NULL;
