-- 0001: runs, their labels, kernels with one raw-metrics blob each, the
-- canonical metric values trend queries read, and profan's findings.

CREATE TABLE runs (
	id           INTEGER PRIMARY KEY,
	digest       TEXT    NOT NULL UNIQUE,          -- "sha256:<hex>" of the export
	source       TEXT    NOT NULL,
	tool         TEXT    NOT NULL,
	format       TEXT    NOT NULL,
	tool_version TEXT    NOT NULL DEFAULT '',
	device       TEXT    NOT NULL DEFAULT '',
	size         INTEGER NOT NULL DEFAULT 0,
	created      TEXT    NOT NULL,                 -- UTC, fixed-width RFC 3339 with nanoseconds
	kernels      INTEGER NOT NULL DEFAULT 0        -- kernel records, set at commit
);

CREATE TABLE run_labels (
	run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	key    TEXT    NOT NULL,
	value  TEXT    NOT NULL,
	PRIMARY KEY (run_id, key)
);
CREATE INDEX run_labels_key_value ON run_labels(key, value, run_id);

-- Kernel names are stored once: mangled names of templated kernels are long
-- and repeat in every run. Trend queries match their regexp against this
-- small table.
CREATE TABLE kernel_names (
	id        INTEGER PRIMARY KEY,
	name      TEXT NOT NULL,
	demangled TEXT NOT NULL DEFAULT '',
	UNIQUE (name, demangled)
);

CREATE TABLE kernels (
	id          INTEGER PRIMARY KEY,
	run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	ordinal     INTEGER NOT NULL,                  -- position in the run, from 0
	launch_id   TEXT    NOT NULL,                  -- profan.Kernel.ID
	name_id     INTEGER NOT NULL REFERENCES kernel_names(id),
	device      TEXT    NOT NULL DEFAULT '',
	cc          TEXT    NOT NULL DEFAULT '',
	grid        TEXT    NOT NULL DEFAULT '',       -- "x,y,z"; "" when unknown
	block       TEXT    NOT NULL DEFAULT '',
	invocations INTEGER NOT NULL DEFAULT 1,
	duration    REAL,                              -- seconds; NULL when unknown
	raw         BLOB    NOT NULL,                  -- the other fields, raw metrics, tool findings, source (store/blob.go)
	UNIQUE (run_id, ordinal)
);
-- Covers trend queries, which then never read the wide kernel rows.
CREATE INDEX kernels_name_run ON kernels(name_id, run_id, ordinal, launch_id);

-- The name, section and units of a raw metric, stored once; blobs refer to
-- these IDs. Rows are never deleted or changed.
CREATE TABLE raw_metric_keys (
	id       INTEGER PRIMARY KEY,
	name     TEXT NOT NULL,
	section  TEXT NOT NULL,
	unit     TEXT NOT NULL,
	raw_unit TEXT NOT NULL,
	UNIQUE (name, section, unit, raw_unit)
);

CREATE TABLE metric_names (
	id   INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);

-- One row per kernel and canonical metric derived; a metric that could not
-- be derived has no row. The key leads with the metric so that the values
-- of one metric lie together: a trend query reads a few pages instead of
-- one page per kernel. kernel_id has no REFERENCES clause on purpose: SQLite
-- would need an index on it to check deletes of kernels, and that index
-- would slow ingest; the store deletes values itself (metric by metric, by
-- kernel ID range) before it deletes kernels.
CREATE TABLE kernel_values (
	metric_id INTEGER NOT NULL REFERENCES metric_names(id),
	kernel_id INTEGER NOT NULL,                    -- kernels.id
	value     REAL    NOT NULL,
	PRIMARY KEY (metric_id, kernel_id)
) WITHOUT ROWID;

CREATE TABLE findings (
	id        INTEGER PRIMARY KEY,
	kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
	rule      TEXT    NOT NULL,
	severity  INTEGER NOT NULL,
	kernel    TEXT    NOT NULL DEFAULT '',         -- profan.Finding.Kernel as given
	message   TEXT    NOT NULL DEFAULT '',
	advice    TEXT    NOT NULL DEFAULT '',
	gain      REAL,                                -- NULL when unknown
	evidence  TEXT    NOT NULL DEFAULT '[]',       -- JSON array of strings
	locations TEXT    NOT NULL DEFAULT '[]'        -- JSON array of {File, Line, SASS}
);
CREATE INDEX findings_kernel ON findings(kernel_id);
