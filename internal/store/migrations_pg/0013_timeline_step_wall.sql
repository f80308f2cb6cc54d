-- 0013: the PostgreSQL twin of migrations/0013_timeline_step_wall.sql:
-- the wall of one step, 0 when the trace marks none.
ALTER TABLE run_timelines ADD COLUMN step_wall double precision NOT NULL DEFAULT 0;
