package ingestdb

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/golden"
	"github.com/profan-dev/profan/internal/store"
)

// TestTraceOneReader stores PyTorch traces into a new database and into
// one that holds a run: each path reads a trace with the trace's reader
// (issue 37, causes 1 and 2), so that a minified trace without a final
// line end and a trace holding a 5 MB string (the bound of a trace's
// string is 16 MB; of a CSV line 4 MB) are stored either way, with the
// tool the reader names.
func TestTraceOneReader(t *testing.T) {
	text := golden.Gunzip(t, "../../fixtures/timeline/copy_stream.json.gz")
	var doc map[string]any
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	minified := func(extra string) []byte {
		if extra != "" {
			doc["traceName"] = extra
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(doc); err != nil {
			t.Fatal(err)
		}
		return bytes.TrimSuffix(b.Bytes(), []byte("\n")) // no final line end
	}
	dir := t.TempDir()
	traces := map[string][]byte{
		"min.json":  minified(""),
		"long.json": minified(strings.Repeat("x", 5<<20)),
	}
	for _, existing := range []bool{false, true} {
		for name, data := range traces {
			db := filepath.Join(dir, name+".db")
			os.Remove(db)
			if existing {
				if _, err := Ingest(context.Background(), db, []string{"../../fixtures/timeline/copy_pinned.json.gz"}, Options{}); err != nil {
					t.Fatal(err)
				}
			}
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Ingest(context.Background(), db, []string{path}, Options{}); err != nil {
				t.Errorf("%s (into an existing database: %v): %v", name, existing, err)
				continue
			}
			s, err := store.OpenReadOnly(db)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := s.Runs(context.Background(), store.RunFilter{})
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rs {
				if r.Tool != "torch" || r.Format != "pytorch-trace" {
					t.Errorf("%s (into an existing database: %v): run %d stored with tool %q, format %q; want torch, pytorch-trace", name, existing, r.ID, r.Tool, r.Format)
				}
			}
		}
	}
}
