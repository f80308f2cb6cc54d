-- 0012: the steps a timeline's span holds (PyTorch's ProfilerStep#N
-- marks), so that a stored run's gains read per step as the export's do;
-- 0 when the trace marks none, and for the runs stored before.
ALTER TABLE run_timelines ADD COLUMN steps INTEGER NOT NULL DEFAULT 0;
