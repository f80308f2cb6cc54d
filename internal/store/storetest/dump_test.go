package storetest

import (
	"bufio"
	"bytes"
	"database/sql"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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

// Dump writes the SQLite database at path as SQL text (the tables, their
// rows, then the indexes), which Load reads back: a database that an
// older profan wrote can then be kept in the repository as text. Real
// numbers are written exactly (SQLite's own quote() rounds them to 15
// digits).
func Dump(w io.Writer, path string) error {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		return err
	}
	defer db.Close()
	type object struct{ kind, name, sql string }
	rows, err := db.Query(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`)
	if err != nil {
		return err
	}
	var objs []object
	for rows.Next() {
		var o object
		if err := rows.Scan(&o.kind, &o.name, &o.sql); err != nil {
			rows.Close()
			return err
		}
		objs = append(objs, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "BEGIN TRANSACTION;")
	for _, o := range objs {
		if o.kind != "table" {
			continue
		}
		fmt.Fprintf(bw, "%s;\n", o.sql)
		if err := dumpRows(bw, db, o.name); err != nil {
			return fmt.Errorf("table %s: %w", o.name, err)
		}
	}
	for _, o := range objs {
		if o.kind != "table" {
			fmt.Fprintf(bw, "%s;\n", o.sql)
		}
	}
	fmt.Fprintln(bw, "COMMIT;")
	return bw.Flush()
}

func dumpRows(w io.Writer, db *sql.DB, table string) error {
	cols, err := db.Query(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return err
	}
	var names []string
	for cols.Next() {
		var n string
		if err := cols.Scan(&n); err != nil {
			cols.Close()
			return err
		}
		names = append(names, n)
	}
	cols.Close()
	var sel []string
	for _, n := range names {
		q := `"` + n + `"`
		sel = append(sel, "typeof("+q+")", "quote("+q+")", "CASE WHEN typeof("+q+") = 'real' THEN "+q+" END")
	}
	rows, err := db.Query(`SELECT ` + strings.Join(sel, ", ") + ` FROM "` + table + `" ORDER BY rowid`)
	if err != nil {
		// WITHOUT ROWID tables: their key orders them.
		rows, err = db.Query(`SELECT ` + strings.Join(sel, ", ") + ` FROM "` + table + `"`)
		if err != nil {
			return err
		}
	}
	defer rows.Close()
	kinds := make([]string, len(names))
	quoted := make([]string, len(names))
	reals := make([]sql.NullFloat64, len(names))
	dest := make([]any, 0, 3*len(names))
	for i := range names {
		dest = append(dest, &kinds[i], &quoted[i], &reals[i])
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		vals := make([]string, len(names))
		for i := range names {
			vals[i] = quoted[i]
			if kinds[i] == "real" && reals[i].Valid {
				vals[i] = realLiteral(reals[i].Float64)
			}
		}
		fmt.Fprintf(w, "INSERT INTO \"%s\" VALUES(%s);\n", table, strings.Join(vals, ","))
	}
	return rows.Err()
}

// realLiteral writes v so that SQLite reads back the same REAL.
func realLiteral(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "1e999"
	case math.IsInf(v, -1):
		return "-1e999"
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}
