package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/maphash"
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

// TestCheckHashWrites: the check hash of a text is one however the text
// is cut into writes, and differs when a byte differs.
func TestCheckHashWrites(t *testing.T) {
	seed := maphash.MakeSeed()
	text := bytes.Repeat([]byte("0123456789abcdef\n"), 3*checkBlock/17+5)
	whole := newCheckHash(seed)
	whole.Write(text)
	for _, step := range []int{1, 7, 128, checkBlock - 1, checkBlock, checkBlock + 3} {
		c := newCheckHash(seed)
		for i := 0; i < len(text); i += step {
			c.Write(text[i:min(i+step, len(text))])
		}
		if c.Sum64() != whole.Sum64() {
			t.Fatalf("writes of %d bytes: %x, whole: %x", step, c.Sum64(), whole.Sum64())
		}
	}
	for _, at := range []int{0, checkBlock - 1, checkBlock, len(text) - 1} {
		other := bytes.Clone(text)
		other[at] ^= 1
		c := newCheckHash(seed)
		c.Write(other)
		if c.Sum64() == whole.Sum64() {
			t.Fatalf("a byte changed at %d: same check hash", at)
		}
	}
	short := newCheckHash(seed)
	short.Write(text[:len(text)-1])
	if short.Sum64() == whole.Sum64() {
		t.Fatal("a text one byte shorter: same check hash")
	}
}
