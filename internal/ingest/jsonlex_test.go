package ingest

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestStrStop holds the eight-bytes-at-a-time scan to a byte loop, on
// random strings of the bytes that matter around every position.
func TestStrStop(t *testing.T) {
	alphabet := []byte{'a', ' ', '"', '\\', 0x00, 0x1f, 0x20, 0x21, 0x7f, 0x80, 0xa0, 0xc3, 0xff, '0', '\n'}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = 'x'
			if rng.IntN(6) == 0 {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		want, ascii := len(b), true
		for i, c := range b {
			if c == '"' || c == '\\' || c < 0x20 {
				want = i
				break
			}
			if c >= 0x80 {
				ascii = false
			}
		}
		if got, gotASCII := strStop(b); got != want || gotASCII != ascii {
			t.Fatalf("%q: %d, %v; want %d, %v", b, got, gotASCII, want, ascii)
		}
	}
}

// TestSkipFast: every array and object of a real trace, as it is and with a byte
// changed, is either taken whole by the one-loop skip, which then ends
// where the token-by-token skip ends without error, or left untouched
// for it.
func TestSkipFast(t *testing.T) {
	doc := torchFixture(t, "copy_pinned")
	rng := rand.New(rand.NewPCG(3, 4))
	mutations := []byte{'"', '\\', '[', ']', ',', ' ', '-', '.', 'e', '0', '7', 'n', '{', '}', ':', 'E', '+', 0x01, 0xc3}
	taken := 0
	for i, c := range doc {
		if c != '[' && c != '{' {
			continue
		}
		for m := 0; m < 8; m++ {
			in := append([]byte(nil), doc[i:min(len(doc), i+4096)]...)
			if m > 0 {
				in[rng.IntN(min(len(in), 40))] = mutations[rng.IntN(len(mutations))]
			}
			fast := smallLex(in)
			if c, ok := fast.peek(); !ok || c != '[' && c != '{' {
				continue
			}
			if !fast.skipFast() {
				if fast.offset() != 0 {
					t.Fatalf("%.40q: not taken, yet moved to byte %d", in, fast.offset())
				}
				continue
			}
			taken++
			// Past maxJSONDepth-fastDepth, skipDepth reads token by token.
			slow := smallLex(in)
			if err := slow.skipDepth(maxJSONDepth - fastDepth + 1); err != nil || slow.offset() != fast.offset() {
				t.Fatalf("%.40q: taken to byte %d; token by token: byte %d, %v", in, fast.offset(), slow.offset(), err)
			}
		}
	}
	if taken == 0 {
		t.Fatal("no array or object taken in one loop")
	}
}

// smallLex is a lexer of in with a window of 8 kB.
func smallLex(in []byte) *jsonLex {
	return &jsonLex{src: bytes.NewReader(in), buf: make([]byte, 8<<10)}
}

// TestParsePlainUS holds the one-pass time reader to parseUSAny on the
// numbers it takes, and checks it leaves the others to it.
func TestParsePlainUS(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	for n := 0; n < 50000; n++ {
		s := digits(1 + rng.IntN(20))
		if rng.IntN(2) == 0 {
			s += "." + digits(1+rng.IntN(8))
		}
		if rng.IntN(4) == 0 {
			s = "-" + s
		}
		if rng.IntN(8) == 0 {
			s += "e" + digits(1+rng.IntN(2))
		}
		want, werr := parseUSAny([]byte(s))
		got, ok := parsePlainUS([]byte(s))
		if ok && (werr != nil || got != want) {
			t.Fatalf("%s: %d; parseUSAny: %d, %v", s, got, want, werr)
		}
		if !ok && werr == nil && !bytes.ContainsAny([]byte(s), "eE") {
			t.Fatalf("%s: left to parseUSAny, which reads %d", s, want)
		}
	}
}
