-- 0017: the idle cause the timeline gained when it named host time spent
-- inside one aten op's own span, outside any runtime call (a library
-- building a plan for a new shape), as that op's host work rather than
-- launch overhead, in seconds. A run stored before has 0: its idle time
-- stays split as it was then.
ALTER TABLE run_timelines ADD COLUMN idle_op_host REAL NOT NULL DEFAULT 0;
