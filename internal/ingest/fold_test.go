package ingest

import (
	"bytes"
	"github.com/profan-dev/profan/internal/units"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/tile"
)

// TestActivitiesFolded tiles the public matrixMul trace (3 copies per 301
// launches) past the bound of activities kept one by one: the later copies
// fold into one record per kind, memory types and stream, and the counts,
// bytes and time they stand for are those of the copies read.
func TestActivitiesFolded(t *testing.T) {
	defer func(n int) { maxActivities = n }(maxActivities)
	maxActivities = 16
	var b bytes.Buffer
	if _, _, err := tile.Trace(&b, "testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", 301*20, true); err != nil {
		t.Fatal(err)
	}
	whole := b.Bytes()
	maxActivities = 1 << 30
	all, err := Read(bytes.NewReader(whole), "trace.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	maxActivities = 16
	folded, err := Read(bytes.NewReader(whole), "trace.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Activities) != 60 || len(folded.Activities) >= 16+4 {
		t.Fatalf("%d activities one by one, %d folded: want 60 and at most 16 plus one per kind", len(all.Activities), len(folded.Activities))
	}
	sum := func(as []*profan.Activity) (n int, bytes, secs float64) {
		for _, a := range as {
			n += a.Invocations
			bytes += a.Bytes * float64(a.Invocations)
			secs += a.Duration * float64(a.Invocations)
		}
		return
	}
	n1, b1, s1 := sum(all.Activities)
	n2, b2, s2 := sum(folded.Activities)
	if n1 != n2 || math.Abs(b1-b2) > 1e-6*b1 || math.Abs(s1-s2) > 1e-9*s1 {
		t.Errorf("folded copies stand for %d calls, %g B, %g s; read %d, %g B, %g s", n2, b2, s2, n1, b1, s1)
	}
	if len(folded.Kernels) != len(all.Kernels) {
		t.Errorf("%d launches with folding, %d without", len(folded.Kernels), len(all.Kernels))
	}
}

// TestShortDecimal checks the fast path against strconv on the numbers of
// real traces and on edge cases.
func TestShortDecimal(t *testing.T) {
	cases := []string{"584.620743", "1.028854", "0.077602", "8.000000", "0", "-0.5", "123456789012345",
		"0.000000000000001", "9007199254740993", "1e3", ".5", "5.", "1.2.3", "-", "0.1", "0.3", "2.675", "99999999999999.9"}
	b, _ := os.ReadFile("testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv")
	for _, line := range bytes.Split(b, []byte("\n")) {
		for _, f := range bytes.Split(line, []byte(",")) {
			cases = append(cases, string(f))
		}
	}
	for _, c := range cases {
		if c == "" {
			continue
		}
		got, ok := units.ShortDecimal([]byte(c))
		if !ok {
			continue
		}
		want, err := strconv.ParseFloat(c, 64)
		if err != nil || got != want {
			t.Errorf("ShortDecimal(%q) = %v, strconv says %v (%v)", c, got, want, err)
		}
	}
	for _, c := range []string{"1e3", ".5", "5.", "1.2.3", "-", "9007199254740993", "1,5"} {
		if _, ok := units.ShortDecimal([]byte(c)); ok {
			t.Errorf("ShortDecimal(%q) took a number it should leave to strconv", c)
		}
	}
}

// TestShortDecimalRandom compares the fast path with strconv on random
// decimals of up to 15 digits.
func TestShortDecimalRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		n := 1 + r.IntN(15)
		d := make([]byte, 0, n+2)
		if r.IntN(4) == 0 {
			d = append(d, '-')
		}
		dot := r.IntN(n + 1)
		for i := range n {
			if i == dot && i > 0 {
				d = append(d, '.')
			}
			d = append(d, byte('0'+r.IntN(10)))
		}
		got, ok := units.ShortDecimal(d)
		want, err := strconv.ParseFloat(string(d), 64)
		if ok && (err != nil || got != want) {
			t.Fatalf("ShortDecimal(%q) = %v, strconv says %v", d, got, want)
		}
	}
}
