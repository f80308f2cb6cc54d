-- 0007: the PostgreSQL twin of migrations/0007_run_timelines.sql: a run's
-- wall span, GPU busy time and share, and idle time by cause (seconds).
CREATE TABLE run_timelines (
	run_id        bigint PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	device        text NOT NULL,
	span          double precision NOT NULL,
	busy          double precision NOT NULL,
	busy_share    double precision NOT NULL,
	idle_launch   double precision NOT NULL,
	idle_sync     double precision NOT NULL,
	idle_copy     double precision NOT NULL,
	idle_queued   double precision NOT NULL,
	idle_leading  double precision NOT NULL,
	idle_trailing double precision NOT NULL,
	idle_other    double precision NOT NULL,
	launches      bigint NOT NULL
);
