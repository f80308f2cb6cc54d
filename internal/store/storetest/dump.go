package storetest

import (
	"bufio"
	"database/sql"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver
)

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

// Load makes a SQLite database in a temporary directory of t from the SQL
// text in the file dump (as Dump writes it) and returns its path.
func Load(t testing.TB, dump string) string {
	t.Helper()
	text, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "loaded.db")
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(text)); err != nil {
		t.Fatalf("loading %s: %v", dump, err)
	}
	return path
}
