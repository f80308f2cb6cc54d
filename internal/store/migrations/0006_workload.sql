-- 0006: the workload a run measures, so that a gate's baseline is a run of
-- the same program rather than the newest run of any: program is the
-- process name the export records ('' when it records none, as nsys and
-- nvprof exports do), run_kernel_names the set of its kernel names. Runs
-- stored before this migration get their kernel names here and no program.
ALTER TABLE runs ADD COLUMN program TEXT NOT NULL DEFAULT '';
CREATE TABLE run_kernel_names (
	run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	name_id INTEGER NOT NULL REFERENCES kernel_names(id),
	PRIMARY KEY (run_id, name_id)
) WITHOUT ROWID;
INSERT INTO run_kernel_names (run_id, name_id) SELECT DISTINCT run_id, name_id FROM kernels;
