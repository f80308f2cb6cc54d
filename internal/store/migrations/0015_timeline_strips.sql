-- 0015: a stored timeline's strips, as the analysis draws them: per
-- device (stream -1) its time line, busy or idle by cause, and per stream
-- of it its busy time, each over the device's span, so that a stored
-- run's page draws the strips the export's does. segments is the strip's
-- segments (store/strips.go). A run stored before has no rows: its page
-- says its figures, without strips.
CREATE TABLE run_timeline_strips (
	run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	device     INTEGER NOT NULL,
	stream     INTEGER NOT NULL,
	name       TEXT    NOT NULL,
	start      REAL    NOT NULL,
	span       REAL    NOT NULL,
	busy       REAL    NOT NULL,
	busy_share REAL    NOT NULL,
	kernels    INTEGER NOT NULL,
	copies     INTEGER NOT NULL,
	sets       INTEGER NOT NULL,
	segments   BLOB    NOT NULL,
	PRIMARY KEY (run_id, device, stream)
);
