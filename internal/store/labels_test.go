package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestAddLabels holds that labels said again for a stored run are added,
// never replace a stored one, and that a conflict writes nothing.
func TestAddLabels(t *testing.T) {
	db, _ := mustOpen(t)
	ctx := context.Background()
	id := ingest(t, db, testInfo("sha256:aa", map[string]string{"branch": "main"}), testKernels())
	for _, c := range []struct {
		name   string
		labels map[string]string
		added  []string
		err    string
		want   map[string]string // the run's labels after
	}{
		{"new keys", map[string]string{"commit": "c5", "branch": "main"}, []string{"commit"}, "",
			map[string]string{"branch": "main", "commit": "c5"}},
		{"said again", map[string]string{"commit": "c5"}, nil, "", map[string]string{"branch": "main", "commit": "c5"}},
		{"conflict", map[string]string{"gpu": "h100", "commit": "c6"}, nil, "run 1 has label commit=c5 already, not commit=c6",
			map[string]string{"branch": "main", "commit": "c5"}},
		{"empty key", map[string]string{"": "x"}, nil, "add labels: empty label key", map[string]string{"branch": "main", "commit": "c5"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			added, err := db.AddLabels(ctx, id, c.labels)
			if fmt.Sprint(added) != fmt.Sprint(c.added) || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
				t.Errorf("AddLabels(%v) = %v, %v; want %v, %q", c.labels, added, err, c.added, c.err)
			}
			run, err := db.Run(ctx, id)
			if err != nil || fmt.Sprint(run.Labels) != fmt.Sprint(c.want) {
				t.Errorf("labels after: %v (%v), want %v", run.Labels, err, c.want)
			}
		})
	}
	var conflict *LabelConflictError
	if _, err := db.AddLabels(ctx, id, map[string]string{"branch": "dev"}); !errors.As(err, &conflict) || conflict.Have != "main" {
		t.Errorf("conflict: %v", err)
	}
	if _, err := db.AddLabels(ctx, id+1, map[string]string{"a": "b"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing run: %v", err)
	}
}
