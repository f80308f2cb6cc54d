package ingest

import (
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
