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
	odd := []float64{math.Inf(-1), -3e300, -1.5, -1e-300, math.Copysign(0, -1), 0, 5e-324, 1e-300, 2.5, 1.7e9, 3e300, math.Inf(1), math.NaN()}
	for _, n := range []int{0, 1, 7, ivalBlock, ivalBlock + 1, 3*ivalBlock + 17} {
		for _, shuffle := range []string{"in order", "shuffled", "two runs", "steady", "odd values"} {
			in := make([]ival, n)
			at := 1.7e9
			for i := range in {
				at += float64(rng.IntN(3)) * 1e-6 // equal starts too
				lead := float32(math.NaN())
				if rng.IntN(2) == 0 {
					lead = float32(rng.Float64() * 1e-5)
				}
				in[i] = ival{start: at, dur: float32(rng.Float64() * 1e-3), lead: lead, key: uint32(rng.IntN(3)) | spanCopy*uint32(rng.IntN(2))}
				switch shuffle {
				case "steady": // a trace's pace: starts 78 µs apart, give or take 1, one lead and key
					in[i] = ival{start: 0.5 + float64(i)*78e-6 + float64(rng.IntN(1000))*1e-9, dur: float32(76e-6 + float64(rng.IntN(1000))*1e-9),
						lead: float32(math.NaN()), key: spanKernel | 3}
				case "odd values": // signs, zeros, extremes, NaN, wrapping changes
					in[i].start = odd[rng.IntN(len(odd)-1)] // no NaN start: the merge of runs orders by <
					in[i].dur = float32(odd[rng.IntN(len(odd))])
					in[i].lead = float32(odd[rng.IntN(len(odd))])
					in[i].key = rng.Uint32()
				}
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
				if shuffle == "steady" && n == 3*ivalBlock+17 && pass == 0 {
					size := 0
					for _, b := range l.blocks {
						size += len(b.b)
					}
					if per := float64(size) / float64(n); per > 9 {
						t.Errorf("a steady trace's intervals take %.1f bytes each, want at most 9", per)
					}
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
