package analysis

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIvalLog holds the compact interval log to a stable sort of what was
// added, bit for bit: in order, shuffled, as two runs in order (a trace's
// kernels, then its copies), with equal starts, NaN leads and across
// several blocks.
func TestIvalLog(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 7, ivalBlock, ivalBlock + 1, 3*ivalBlock + 17} {
		for _, shuffle := range []string{"in order", "shuffled", "two runs"} {
			in := make([]ival, n)
			at := 1.7e9
			for i := range in {
				at += float64(rng.IntN(3)) * 1e-6 // equal starts too
				lead := float32(math.NaN())
				if rng.IntN(2) == 0 {
					lead = float32(rng.Float64() * 1e-5)
				}
				in[i] = ival{start: at, dur: float32(rng.Float64() * 1e-3), lead: lead, key: uint32(rng.IntN(3)) | spanCopy*uint32(rng.IntN(2))}
			}
			switch shuffle {
			case "shuffled":
				rng.Shuffle(n, func(i, j int) { in[i], in[j] = in[j], in[i] })
			case "two runs": // every other interval, then the rest
				var a, b []ival
				for i, iv := range in {
					if i%2 == 0 {
						a = append(a, iv)
					} else {
						b = append(b, iv)
					}
				}
				in = append(a, b...)
			}
			var l ivalLog
			for _, iv := range in {
				l.add(iv)
			}
			want := slices.Clone(in)
			slices.SortStableFunc(want, func(x, y ival) int { return cmp.Compare(x.start, y.start) })
			for pass := range 2 { // all may be walked more than once
				var got []ival
				for iv := range l.all() {
					got = append(got, iv)
				}
				if l.len() != n || len(got) != n {
					t.Fatalf("%d intervals (%s), pass %d: len %d, walked %d", n, shuffle, pass, l.len(), len(got))
				}
				for i := range got {
					g, w := got[i], want[i]
					if math.Float64bits(g.start) != math.Float64bits(w.start) || math.Float32bits(g.dur) != math.Float32bits(w.dur) ||
						math.Float32bits(g.lead) != math.Float32bits(w.lead) || g.key != w.key {
						t.Fatalf("%d intervals (%s), pass %d: [%d] = %+v, want %+v", n, shuffle, pass, i, g, w)
					}
				}
			}
		}
	}
}
