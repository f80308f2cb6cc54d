-- 0004: the templates of profiler rule rows (store/template.go). A kernel
-- blob of version 2 refers to a finding's template by ID and holds only
-- its numbers; ncu's rule descriptions were most of a --set full launch's
-- bytes. Version 1 blobs, which write every finding out, are still read.
CREATE TABLE text_templates (
	id   INTEGER PRIMARY KEY,
	text TEXT    NOT NULL UNIQUE
);
