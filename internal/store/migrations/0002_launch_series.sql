-- 0002: launches of one kernel that differ only in launch ID, start and
-- duration (the rows of a long nvprof or nsys trace) are stored as one
-- kernels row, the first launch, and the rest as compact series chunks: a
-- trace of 600,000 launches of a few kernels is then a few kernels rows
-- instead of 600,000. Readers expand a series back into its launches
-- (store/series.go has the encoding).
CREATE TABLE launch_series (
	kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE, -- the series' first launch
	chunk     INTEGER NOT NULL,                                           -- from 0, in launch order
	launches  INTEGER NOT NULL,                                           -- launches in this chunk
	data      BLOB    NOT NULL,
	PRIMARY KEY (kernel_id, chunk)
);
