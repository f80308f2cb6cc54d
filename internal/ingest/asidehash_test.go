package ingest

import (
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
)

// TestAsideHash holds the digest asideHash computes beside its writer
// equal to that of the same writes made directly, whatever their sizes
// (blocks handed over or not), and a stopped one safe to write to.
func TestAsideHash(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 2))
	for i := range 40 {
		want, got := sha256.New(), sha256.New()
		a := newAsideHash(got)
		n := rng.IntN(6 * asideBlock)
		if i%4 == 0 {
			n = rng.IntN(64)
		}
		text := make([]byte, n)
		for j := range text {
			text[j] = byte(rng.IntN(256))
		}
		for rest := text; len(rest) > 0; {
			k := 1 + rng.IntN(min(len(rest), 3000))
			want.Write(rest[:k])
			a.Write(rest[:k])
			rest = rest[k:]
		}
		a.wait()
		want.Write([]byte("after"))
		a.Write([]byte("after"))
		if !bytes.Equal(want.Sum(nil), got.Sum(nil)) {
			t.Fatalf("case %d (%d bytes): digests differ", i, n)
		}
		s := newAsideHash(sha256.New())
		s.Write(text)
		s.stop()
		s.Write(text)
		s.wait()
	}
}

// TestAsideHashRead holds the digest of an export read whole, hashed
// beside the parse, equal to DigestOf's, at sizes past a block.
func TestAsideHashRead(t *testing.T) {
	head := `"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"` + "\r\n"
	var b strings.Builder
	b.WriteString(head)
	for i := range 3000 {
		for _, m := range []string{`"Duration","ns","1,024"`, `"Registers Per Thread","register/thread","32"`} {
			b.WriteString(`"` + strconv.Itoa(i) + `","1","a","h","k(int)","1","7","(256, 1, 1)","(64, 1, 1)","0","9.0","S",` + m + "\r\n")
		}
	}
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := DigestOf(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	run, err := f.Read(Options{}, Sink{Kernel: func(*profan.Run, *profan.Kernel) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if f.async == nil {
		t.Fatal("the read did not hash beside the parse")
	}
	if run.Digest != want {
		t.Fatalf("digest %s, DigestOf %s", run.Digest, want)
	}
}
