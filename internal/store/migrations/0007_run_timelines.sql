-- 0007: a run's timeline, for the exports that have one (traces with start
-- times): the wall span, the GPU busy time and its share of the span, and
-- the idle time by cause, all in seconds, so that gate can fail on an idle
-- regression against a stored baseline and trend can plot the busy share.
CREATE TABLE run_timelines (
	run_id        INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	device        TEXT NOT NULL,
	span          REAL NOT NULL,
	busy          REAL NOT NULL,
	busy_share    REAL NOT NULL,
	idle_launch   REAL NOT NULL,
	idle_sync     REAL NOT NULL,
	idle_copy     REAL NOT NULL,
	idle_queued   REAL NOT NULL,
	idle_leading  REAL NOT NULL,
	idle_trailing REAL NOT NULL,
	idle_other    REAL NOT NULL,
	launches      INTEGER NOT NULL
);
