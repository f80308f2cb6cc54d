-- 0008: the PostgreSQL twin of migrations/0008_run_host_calls.sql: a run's
-- host calls, one row per name in the export's order (seconds; NULL where
-- the export gave no number).
CREATE TABLE run_host_calls (
	run_id     bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq        integer NOT NULL,
	name       text NOT NULL,
	os_runtime integer NOT NULL,
	calls      bigint NOT NULL,
	total      double precision,
	avg        double precision,
	min        double precision,
	max        double precision,
	PRIMARY KEY (run_id, seq)
);
