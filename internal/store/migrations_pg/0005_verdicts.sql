-- 0005: the PostgreSQL twin of migrations/0005_verdicts.sql: the version of
-- the verdict maker that made each run's stored verdict, and the parts of
-- a kernel's verdict that the other columns and tables do not hold.
ALTER TABLE runs ADD COLUMN verdict integer NOT NULL DEFAULT 1;
ALTER TABLE kernels ADD COLUMN verdict text NOT NULL DEFAULT '';
