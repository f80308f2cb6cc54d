// Package storetest gives tests outside store/ a database of their own on
// each backend: a file in a temporary directory for SQLite, and a fresh
// schema in the $PROFAN_TEST_PG database for PostgreSQL.
package storetest

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver
	_ "github.com/mattn/go-sqlite3"    // the SQLite driver
)

// envPG names the variable that holds the PostgreSQL server for tests, as
// scripts/pg-test-cluster prints it.
const envPG = "PROFAN_TEST_PG"

// Backends lists the backends tests run on.
var Backends = []string{"sqlite", "postgres"}

var admin struct {
	once sync.Once
	db   *sql.DB
	err  error
}

// DSN returns a new, empty database on backend for t: a SQLite file path,
// or a postgres:// URL whose connections use a schema of their own,
// dropped when t ends. It skips t on PostgreSQL when $PROFAN_TEST_PG is not
// set.
func DSN(t testing.TB, backend string) string {
	t.Helper()
	switch backend {
	case "sqlite":
		return filepath.Join(t.TempDir(), "runs.db")
	case "postgres":
	default:
		t.Fatalf("unknown backend %q", backend)
	}
	base := os.Getenv(envPG)
	if base == "" {
		t.Skipf("$%s is not set (start a server with scripts/pg-test-cluster)", envPG)
	}
	admin.once.Do(func() {
		admin.db, admin.err = sql.Open("pgx", base)
		if admin.err == nil {
			admin.err = admin.db.Ping()
		}
	})
	if admin.err != nil {
		t.Fatalf("$%s: %v", envPG, admin.err)
	}
	schema := fmt.Sprintf("profan_cli_%08x", rand.Uint32())
	if _, err := admin.db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`) })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// Load makes a SQLite database in a temporary directory of t from the SQL
// text in the file dump (as TestDump writes it with -dump-to) and returns its path.
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
