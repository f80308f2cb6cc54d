-- 0006: the PostgreSQL twin of migrations/0006_workload.sql: the program a
-- run measures and the set of its kernel names, which pick a gate's
-- baseline among the runs of the same workload.
ALTER TABLE runs ADD COLUMN program text NOT NULL DEFAULT '';
CREATE TABLE run_kernel_names (
	run_id  bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	name_id bigint NOT NULL REFERENCES kernel_names(id),
	PRIMARY KEY (run_id, name_id)
);
INSERT INTO run_kernel_names (run_id, name_id) SELECT DISTINCT run_id, name_id FROM kernels;
