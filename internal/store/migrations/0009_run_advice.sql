-- 0009: a run's application advice, as the analysis made it at ingest
-- (the recommendations ranked with their gains, the levers already in use,
-- the ones a suppression silenced), so that report --db and a gate render
-- the verdict analyze states: it is made from the run's whole timeline
-- and host transfers, which the database does not keep. One JSON document
-- a run, written and read by internal/verdictdb; the store keeps it as
-- text and never reads inside it.
CREATE TABLE run_advice (
	run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
	advice TEXT NOT NULL
);
