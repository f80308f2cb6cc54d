-- 0014: what a stored timeline's idle time is behind, as the export's
-- analysis says it: per cause its gaps (run_idle_gaps), and the host
-- calls behind them (run_idle_calls: the synchronising call with the aten
-- op and Python frame around it, the copy call, the launch calls), most
-- idle time first (seq). A run stored before has no rows: its causes'
-- gaps and calls are unknown.
CREATE TABLE run_idle_gaps (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	cause  TEXT NOT NULL,
	gaps   INTEGER NOT NULL,
	PRIMARY KEY (run_id, cause)
);
CREATE TABLE run_idle_calls (
	run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	cause   TEXT NOT NULL,
	seq     INTEGER NOT NULL,
	name    TEXT NOT NULL,
	op      TEXT NOT NULL,
	frame   TEXT NOT NULL,
	method  TEXT NOT NULL,
	calls   INTEGER NOT NULL,
	seconds REAL NOT NULL,
	PRIMARY KEY (run_id, cause, seq)
);
