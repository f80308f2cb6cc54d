-- 0010: the PostgreSQL twin of migrations/0010_timeline_host_causes.sql:
-- the idle causes data loading, the user's Python and the allocator.
ALTER TABLE run_timelines ADD COLUMN idle_data double precision NOT NULL DEFAULT 0;
ALTER TABLE run_timelines ADD COLUMN idle_python double precision NOT NULL DEFAULT 0;
ALTER TABLE run_timelines ADD COLUMN idle_alloc double precision NOT NULL DEFAULT 0;
