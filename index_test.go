package profan_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/profan-dev/profan"
)

// TestIndexedLike holds a kernel that takes another's metric index
// (IndexedLike) equal to one that indexes its own, metric for metric and
// look-up for look-up, whatever the metrics added: the other's names in
// its order, names seen before with the same value, in another section
// (kept as <section>/<name>) or the same one, and names out of order.
func TestIndexedLike(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 4))
	names := []string{"a", "b", "c", "S/a", "T/b", "d"}
	sections := []string{"S", "T"}
	metric := func() profan.Metric {
		m := profan.NewMetric(names[rng.IntN(len(names))])
		m.Section = sections[rng.IntN(len(sections))]
		if rng.IntN(4) > 0 {
			m.Value = float64(rng.IntN(3))
		}
		return m
	}
	trials := 20000
	if testing.Short() {
		trials = 2000
	}
	for i := range trials {
		first := profan.NewKernel()
		var ms []profan.Metric
		for range rng.IntN(8) {
			m := metric()
			ms = append(ms, m)
			first.AddMetric(m)
		}
		x := profan.IndexOf(first)
		// The next launch: mostly the same rows, some changed.
		next := append([]profan.Metric(nil), ms...)
		for j := range next {
			if rng.IntN(6) == 0 {
				next[j] = metric()
			} else if rng.IntN(3) == 0 {
				next[j].Value = float64(rng.IntN(3))
			}
		}
		if rng.IntN(5) == 0 {
			next = append(next, metric())
		}
		if rng.IntN(5) == 0 && len(next) > 0 {
			next = next[:rng.IntN(len(next))]
		}
		own, like := profan.NewKernel(), profan.NewKernel()
		like.IndexedLike(x)
		for _, m := range next {
			own.AddMetric(m)
			like.AddMetric(m)
		}
		if !reflect.DeepEqual(metricList(own), metricList(like)) {
			t.Fatalf("case %d: %v indexed like %v: metrics %v, want %v", i, next, ms, metricList(like), metricList(own))
		}
		for _, n := range append(names, "S/S/a", "x") {
			a, aok := own.Metric(n)
			b, bok := like.Metric(n)
			if aok != bok || a.Name != b.Name || !(a.Value == b.Value || math.IsNaN(a.Value) && math.IsNaN(b.Value)) {
				t.Fatalf("case %d: Metric(%q) %v %v, want %v %v", i, n, b, bok, a, aok)
			}
		}
	}
}

// metricList is a kernel's metrics as name=section/value strings.
func metricList(k *profan.Kernel) []string {
	var out []string
	for _, m := range k.Metrics {
		out = append(out, fmt.Sprintf("%s=%s/%g", m.Name, m.Section, m.Value))
	}
	return out
}
