-- 0016: each marked step's wall (its ProfilerStep#N span on the host) and
-- the GPU's busy share of it, in order (seq), so that a diff of two stored
-- runs tests the wall per step as the diff of their exports does (the
-- median alone, 0013's step_wall, cannot be tested). busy is NULL where
-- the export gives the walls only. A run stored before has no rows.
CREATE TABLE run_step_walls (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq    INTEGER NOT NULL,
	wall   REAL    NOT NULL,
	busy   REAL,
	PRIMARY KEY (run_id, seq)
);
