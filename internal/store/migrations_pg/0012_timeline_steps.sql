-- 0012: the PostgreSQL twin of migrations/0012_timeline_steps.sql: the
-- steps a timeline's span holds, 0 when the trace marks none.
ALTER TABLE run_timelines ADD COLUMN steps integer NOT NULL DEFAULT 0;
