-- 0014: the PostgreSQL twin of migrations/0014_timeline_idle_calls.sql:
-- per idle cause of a stored timeline its gaps, and the host calls behind
-- them, most idle time first.
CREATE TABLE run_idle_gaps (
	run_id bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	cause  text NOT NULL,
	gaps   bigint NOT NULL,
	PRIMARY KEY (run_id, cause)
);
CREATE TABLE run_idle_calls (
	run_id  bigint NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	cause   text NOT NULL,
	seq     integer NOT NULL,
	name    text NOT NULL,
	op      text NOT NULL,
	frame   text NOT NULL,
	method  text NOT NULL,
	calls   bigint NOT NULL,
	seconds double precision NOT NULL,
	PRIMARY KEY (run_id, cause, seq)
);
