package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// TestTextHashLines holds the digest of chunks (a JSON document's, the
// one computed beside a read) equal to the line reader's, whatever the
// chunks' bounds and the text's CRs and LFs: the digest a storing read
// computes beside the parse and the one the parse hashes agree.
func TestTextHashLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	trials := 3000
	if testing.Short() {
		trials = 300
	}
	for i := range trials {
		n := rng.IntN(24)
		text := make([]byte, n)
		for j := range text {
			text[j] = "ab \r\n"[rng.IntN(5)]
		}
		lr, err := newLineReader(bytes.NewReader(text), "x", 4096)
		if err != nil {
			t.Fatal(err)
		}
		lh := sha256.New()
		lr.h = lh
		for {
			if _, err := lr.read(); err != nil {
				break
			}
		}
		ch := sha256.New()
		th := textHash{h: ch}
		for rest := text; len(rest) > 0; {
			k := 1 + rng.IntN(len(rest))
			th.write(rest[:k])
			rest = rest[k:]
		}
		th.end()
		if a, b := hex.EncodeToString(lh.Sum(nil)), hex.EncodeToString(ch.Sum(nil)); a != b {
			t.Fatalf("case %d %q: chunks hash to %s, lines to %s", i, text, b, a)
		}
		if d, err := digestOf(bytes.NewReader(text), "x", nil); err != nil || d != "sha256:"+hex.EncodeToString(lh.Sum(nil)) {
			t.Fatalf("case %d %q: digestOf %s, %v", i, text, d, err)
		}
	}
}

// TestUTF16LoneSurrogate holds a lone surrogate in UTF-16 text refused
// at its line, as invalid UTF-8 is: read as U+FFFD (or dropped), two
// kernel names that differ there would be one. A pair reads.
func TestUTF16LoneSurrogate(t *testing.T) {
	text := "\"Start\",\"Duration\"\nline 2\nline \uFFFD 3\nline 4\n"
	for _, c := range []struct {
		name  string
		units []uint16
		ok    bool
	}{
		{"a high surrogate before a letter", []uint16{0xD800, 'x'}, false},
		{"a low surrogate alone", []uint16{0xDC00}, false},
		{"two high surrogates", []uint16{0xD800, 0xD801, 0xDC00}, false},
		{"a pair", []uint16{0xD83D, 0xDE00}, true},
	} {
		var b []byte
		b = append(b, 0xFF, 0xFE)
		for _, r := range text {
			if r == 0xFFFD {
				for _, u := range c.units {
					b = append(b, byte(u), byte(u>>8))
				}
				continue
			}
			b = append(b, byte(r), byte(r>>8))
		}
		lr, err := newLineReader(bytes.NewReader(b), "in.csv", 4096)
		if err != nil {
			t.Fatal(err)
		}
		var got error
		for {
			if _, err := lr.next(); err != nil {
				if err != io.EOF {
					got = err
				}
				break
			}
		}
		var se *syntaxError
		switch {
		case c.ok && got != nil:
			t.Errorf("%s: %v", c.name, got)
		case !c.ok && (!errors.As(got, &se) || se.Line != 3):
			t.Errorf("%s: %v, want refused at line 3", c.name, got)
		}
	}
}
