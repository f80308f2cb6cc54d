-- 0011: the PostgreSQL twin of migrations/0011_run_captured.sql: when
-- the capture was taken, '' when the export does not say.
ALTER TABLE runs ADD COLUMN captured text NOT NULL DEFAULT '';
