package storetest

import (
	"bytes"
	"database/sql"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var (
	dumpFrom = flag.String("dump-from", "", "SQLite database to write as SQL text (with -dump-to)")
	dumpTo   = flag.String("dump-to", "", "file the SQL text of -dump-from goes to")
)

// TestDump writes -dump-from to -dump-to when given; and holds that a
// database dumped and loaded dumps the same again, with its REAL values
// exact.
func TestDump(t *testing.T) {
	if *dumpFrom != "" {
		var b bytes.Buffer
		if err := Dump(&b, *dumpFrom); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*dumpTo, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (id INTEGER PRIMARY KEY, s TEXT, r REAL, b BLOB);
CREATE INDEX t_s ON t(s);
INSERT INTO t VALUES (1, 'it''s', 0.1, X'00ff'), (2, NULL, 1e300, NULL), (3, 'x
y', 3.0000000000000004, X''), (4, '', -2.5e-310, NULL)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	var a bytes.Buffer
	if err := Dump(&a, path); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "a.sql")
	os.WriteFile(file, a.Bytes(), 0o644)
	var b bytes.Buffer
	if err := Dump(&b, Load(t, file)); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("dump, load, dump differs:\n%s\n---\n%s", a.String(), b.String())
	}
	for _, want := range []string{"3.0000000000000004", "X'00FF'", "'it''s'", "-2.5e-310"} {
		if !bytes.Contains(a.Bytes(), []byte(want)) {
			t.Errorf("dump lacks %s:\n%s", want, a.String())
		}
	}
}
