-- 0011: when the capture was taken, where the export says (a PyTorch
-- trace's baseTimeNanoseconds): UTC, the fixed-width RFC 3339 of
-- `created`; '' when the export does not say (CSV exports), and for the
-- runs stored before.
ALTER TABLE runs ADD COLUMN captured TEXT NOT NULL DEFAULT '';
