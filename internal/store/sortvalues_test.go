package store

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortValues holds sortValues' order the key order, whatever the
// rows: kernel by kernel as a run stores them, in any order, with metric
// IDs close together or far apart.
func TestSortValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 5))
	var spare []pendingValue
	for i := range 3000 {
		var vs []pendingValue
		metrics := int64(1 + rng.IntN(50))
		if i%5 == 0 {
			metrics = 1 << 40 // too sparse to count
		}
		for k := range int64(rng.IntN(30)) {
			for _, m := range rng.Perm(1 + rng.IntN(20)) {
				vs = append(vs, pendingValue{metricID: int64(m) * max(1, metrics/20), nameID: int64(rng.IntN(2)), kernelID: 100 + k, value: float64(i)})
			}
		}
		if i%3 == 0 {
			rng.Shuffle(len(vs), func(a, b int) { vs[a], vs[b] = vs[b], vs[a] })
		}
		want := slices.Clone(vs)
		slices.SortFunc(want, func(a, b pendingValue) int {
			return cmp.Or(cmp.Compare(a.metricID, b.metricID), cmp.Compare(a.nameID, b.nameID), cmp.Compare(a.kernelID, b.kernelID))
		})
		var got []pendingValue
		got, spare = sortValues(vs, spare)
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: %v, want %v", i, got, want)
		}
	}
}
