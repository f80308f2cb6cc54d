-- 0013: the wall of one step (the median of the marked steps' walls), so
-- that a stored run's gains a step read as the export's do; 0 when the
-- trace marks no step, and for the runs stored before (then the span over
-- the steps stands in).
ALTER TABLE run_timelines ADD COLUMN step_wall REAL NOT NULL DEFAULT 0;
