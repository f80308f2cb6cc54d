-- 0002: the PostgreSQL twin of migrations/0002_launch_series.sql: repeated
-- launches of one kernel stored as the first launch plus compact chunks.
CREATE TABLE launch_series (
	kernel_id bigint  NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
	chunk     integer NOT NULL,
	launches  integer NOT NULL,
	data      bytea   NOT NULL,
	PRIMARY KEY (kernel_id, chunk)
);
