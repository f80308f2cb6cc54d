-- 0009: the PostgreSQL twin of migrations/0009_run_advice.sql: a run's
-- application advice as made at ingest, one JSON document a run.
CREATE TABLE run_advice (
	run_id bigint PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	advice text NOT NULL
);
