package ingest

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestSplitRepeating holds the split of a line that reuses the fields of
// the line before it equal to splitStrict's, fields and error, whatever
// the lines share: quoted fields with "" escapes, empty fields, spaces
// before a quote, text after a quote, cut lines.
func TestSplitRepeating(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 3))
	parts := []string{`"a"`, `"b,c"`, `"d""e"`, `""`, ``, `f`, ` "g"`, `"h"x`, `i"j`, `"k`, `"0","1"`, `"l m"`}
	trials := 20000
	if testing.Short() {
		trials = 2000
	}
	tb := &table{}
	var prev []byte
	for i := range trials {
		var line []byte
		if len(prev) > 0 && rng.IntN(4) > 0 {
			// A line that begins as the one before it.
			line = append(line, prev[:rng.IntN(len(prev)+1)]...)
		}
		for range rng.IntN(6) {
			if len(line) > 0 {
				line = append(line, ',')
			}
			line = append(line, parts[rng.IntN(len(parts))]...)
		}
		want, werr := splitStrict(line, nil)
		got, gerr := tb.splitRepeating(line)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("case %d %q after %q: error %v, want %v", i, line, prev, gerr, werr)
		}
		if werr == nil {
			if len(got) != len(want) {
				t.Fatalf("case %d %q after %q: %q, want %q", i, line, prev, got, want)
			}
			for j := range want {
				if !bytes.Equal(got[j], want[j]) {
					t.Fatalf("case %d %q after %q: %q, want %q", i, line, prev, got, want)
				}
			}
		}
		tb.fields = got
		prev = line
	}
}
