-- 0010: the idle causes the timeline gained when it split GPU idle time by
-- what the host was doing (data loading, the user's Python, the
-- allocator), one column each beside 0007's, in seconds. A run stored
-- before has 0 in each: its idle time stays split as it was then.
ALTER TABLE run_timelines ADD COLUMN idle_data REAL NOT NULL DEFAULT 0;
ALTER TABLE run_timelines ADD COLUMN idle_python REAL NOT NULL DEFAULT 0;
ALTER TABLE run_timelines ADD COLUMN idle_alloc REAL NOT NULL DEFAULT 0;
