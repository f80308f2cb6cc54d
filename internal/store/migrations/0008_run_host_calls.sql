-- 0008: a run's host calls, for the exports that have them (nsys
-- cuda_api_sum, osrt_sum and cuda_api_trace, nvprof's API calls, a
-- PyTorch trace's CUDA calls summed by name): one row per name, in the
-- export's order (seq), so that a stored run reports the host time analyze
-- states. Seconds; NULL where the export gave no number.
CREATE TABLE run_host_calls (
	run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL,
	name       TEXT NOT NULL,
	os_runtime INTEGER NOT NULL,
	calls      INTEGER NOT NULL,
	total      REAL,
	avg        REAL,
	min        REAL,
	max        REAL,
	PRIMARY KEY (run_id, seq)
);
