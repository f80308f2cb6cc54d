package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveUnpublished: a fresh database neither published nor discarded
// when the process must exit (a command stuck after a signal) leaves no
// temporary file and no database at its path; one published stays.
func TestRemoveUnpublished(t *testing.T) {
	dir := t.TempDir()
	kept, err := OpenFresh(filepath.Join(dir, "kept.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := kept.Publish(); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFresh(filepath.Join(dir, "new.db")); err != nil {
		t.Fatal(err)
	}
	RemoveUnpublished()
	left, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].Name() != "kept.db" {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("left %v, want only kept.db", names)
	}
}
