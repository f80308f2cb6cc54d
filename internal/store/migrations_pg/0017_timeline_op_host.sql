-- 0017: the PostgreSQL twin of migrations/0017_timeline_op_host.sql: the
-- idle cause "op host work", seconds.
ALTER TABLE run_timelines ADD COLUMN idle_op_host double precision NOT NULL DEFAULT 0;
