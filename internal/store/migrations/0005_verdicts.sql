-- 0005: the verdict a run stores is the analysis's whole verdict. verdict is
-- the version of the verdict maker that made it (analysis.VerdictVersion;
-- runs stored before this migration made theirs with version 1), so that a
-- newer profan re-makes an older verdict from the stored counters instead
-- of reading it as its own. kernels.verdict holds what the other columns
-- and tables do not: the limiter, the findings suppressed, the rules
-- skipped and the counters missing, as JSON (store/verdict.go); '' in runs
-- of version 1, which stored none of these.
ALTER TABLE runs ADD COLUMN verdict INTEGER NOT NULL DEFAULT 1;
ALTER TABLE kernels ADD COLUMN verdict TEXT NOT NULL DEFAULT '';
