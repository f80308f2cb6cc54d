-- 0003: profan's run-level findings (host transfers: pageable-memcpy,
-- sync-memcpy), stored as the verdict made them at ingest, so that gate
-- --run and report read the same findings analyze states.
CREATE TABLE run_findings (
	id       INTEGER PRIMARY KEY,
	run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	rule     TEXT    NOT NULL,
	severity INTEGER NOT NULL,
	message  TEXT    NOT NULL DEFAULT '',
	advice   TEXT    NOT NULL DEFAULT '',
	gain     REAL,                          -- NULL when unknown
	evidence TEXT    NOT NULL DEFAULT '[]'  -- JSON array of strings
);
CREATE INDEX run_findings_run ON run_findings(run_id);
