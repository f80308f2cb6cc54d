-- 0016: the PostgreSQL twin of migrations/0016_timeline_step_walls.sql:
-- each marked step's wall and the GPU's busy share of it, in order.
CREATE TABLE run_step_walls (
	run_id bigint           NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq    integer          NOT NULL,
	wall   double precision NOT NULL,
	busy   double precision,
	PRIMARY KEY (run_id, seq)
);
