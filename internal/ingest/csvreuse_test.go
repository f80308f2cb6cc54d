package ingest

import (
	"bytes"
	"math/rand/v2"
	"strings"
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

// TestSplitTrace holds the split of a trace row that takes the middle
// fields of the row before it (splitTrace) equal to splitStrict's,
// fields and error, whatever the rows are: middles the same or not,
// first fields quoted, quoted fields with "" escapes or commas, empty
// fields, spaces before a quote, text after a quote, cut rows.
func TestSplitTrace(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 5))
	parts := []string{`"a"`, `"b,c"`, `"d""e"`, `""`, ``, `f`, ` "g"`, `"h"x`, `i"j`, `"k`, `12.5`, `"l m"`, `7`}
	trials := 30000
	if testing.Short() {
		trials = 3000
	}
	tb := &table{}
	var mid []string
	for i := range trials {
		if mid == nil || rng.IntN(4) == 0 {
			mid = nil
			for range rng.IntN(7) {
				mid = append(mid, parts[rng.IntN(len(parts))])
			}
		}
		row := []string{parts[rng.IntN(len(parts))], parts[rng.IntN(len(parts))]}
		if rng.IntN(3) > 0 {
			row = []string{"5" + string(rune('0'+rng.IntN(10))), "0.0" + string(rune('0'+rng.IntN(10)))}
		}
		row = append(row, mid...)
		for range rng.IntN(3) {
			row = append(row, parts[rng.IntN(len(parts))])
		}
		line := []byte(strings.Join(row, ","))
		if rng.IntN(20) == 0 {
			line = line[:rng.IntN(len(line)+1)] // cut
		}
		want, werr := splitStrict(line, nil)
		got, gerr := tb.splitTrace(line)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("case %d %q: error %v, want %v", i, line, gerr, werr)
		}
		if werr == nil {
			if len(got) != len(want) {
				t.Fatalf("case %d %q: %q, want %q", i, line, got, want)
			}
			for j := range want {
				if !bytes.Equal(got[j], want[j]) {
					t.Fatalf("case %d %q: %q, want %q", i, line, got, want)
				}
			}
		}
		tb.fields = got
	}
}
