package ingest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestTextHashLines holds the digest of chunks (a JSON document's, the
// one computed beside a read) equal to the line reader's, whatever the
// chunks' bounds and the text's CRs and LFs: the digest a storing read
// computes beside the parse and the one the parse hashes agree.
func TestTextHashLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	for i := range 3000 {
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
		if d, err := digestOf(bytes.NewReader(text), "x"); err != nil || d != "sha256:"+hex.EncodeToString(lh.Sum(nil)) {
			t.Fatalf("case %d %q: digestOf %s, %v", i, text, d, err)
		}
	}
}
