package ingest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSplitShortFields holds splitFields, whose unquoted fields are read
// a byte at a time for 16 bytes and then by IndexByte, to the
// same fields and errors as a scan by IndexByte alone (splitByIndex),
// strict or not, on lines of commas, quotes, spaces and letters, with
// fields about 16 bytes long.
func TestSplitShortFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 3))
	trials := 20000
	if testing.Short() {
		trials = 2000
	}
	for n := range trials {
		line := make([]byte, rng.IntN(60))
		for j := range line {
			line[j] = "a,\" bbbbbxxxxxxxx"[rng.IntN(16)] // commas about 16 bytes apart
		}
		for _, strict := range []bool{false, true} {
			got, gerr := splitFields(line, nil, strict)
			want, werr := splitByIndex(line, strict)
			if fmt.Sprint(gerr) != fmt.Sprint(werr) || gerr == nil && !sameFields(got, want) {
				t.Fatalf("case %d %q strict %v: %q %v, want %q %v", n, line, strict, got, gerr, want, werr)
			}
		}
	}
}

func sameFields(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// splitByIndex is splitFields as it read an unquoted field before: by
// bytes.IndexByte of its comma, then of a quote in it.
func splitByIndex(line []byte, strict bool) ([][]byte, error) {
	var dst [][]byte
	i := 0
	for {
		j := i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] == '"' {
			f, next, err := quoted(line, j+1)
			if err != nil {
				return dst, err
			}
			dst = append(dst, f)
			if next >= len(line) {
				return dst, nil
			}
			if line[next] != ',' {
				if strict {
					return dst, errTextAfterQuote
				}
				k := next
				for k < len(line) && line[k] != ',' {
					k++
				}
				if k >= len(line) {
					return dst, nil
				}
				next = k
			}
			i = next + 1
			continue
		}
		k := len(line)
		if c := bytes.IndexByte(line[i:], ','); c >= 0 {
			k = i + c
		}
		if strict && bytes.IndexByte(line[i:k], '"') >= 0 {
			return dst, errQuoteInField
		}
		dst = append(dst, line[i:k])
		if k >= len(line) {
			return dst, nil
		}
		i = k + 1
	}
}
