-- 0015: the PostgreSQL twin of migrations/0015_timeline_strips.sql: a
-- stored timeline's strips, per device (stream -1) and per stream of it,
-- with their segments (store/strips.go).
CREATE TABLE run_timeline_strips (
	run_id     bigint           NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	device     integer          NOT NULL,
	stream     integer          NOT NULL,
	name       text             NOT NULL,
	start      double precision NOT NULL,
	span       double precision NOT NULL,
	busy       double precision NOT NULL,
	busy_share double precision NOT NULL,
	kernels    bigint           NOT NULL,
	copies     bigint           NOT NULL,
	sets       bigint           NOT NULL,
	segments   bytea            NOT NULL,
	PRIMARY KEY (run_id, device, stream)
);
