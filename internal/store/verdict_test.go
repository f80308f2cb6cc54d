package store

import (
	"context"
	"testing"
)

// FuzzDecodeVerdict: a stored verdict's text, whatever another program or
// a damaged file put there, is read or refused, never a crash.
func FuzzDecodeVerdict(f *testing.F) {
	for _, s := range []string{"", `{}`, `{"limiter":{"unit":"DRAM","percent":93.5,"evidence":"e"}}`,
		`{"suppressed":[{"rule":"r","severity":1,"gain":0.5,"reason":"x"}],"notes":1}`, `{"notes_text":{"skipped":["a"],"missing":[{"Rule":"r"}]}}`,
		`{"limiter":{"unit":"nope"}}`, `{"notes":99}`, `[`} {
		f.Add(s)
	}
	db, _ := mustOpen(f)
	f.Fuzz(func(t *testing.T, text string) {
		var s Verdict
		db.decodeVerdict(context.Background(), text, &s)
	})
}
