package gate

import "github.com/profan-dev/profan/internal/analysis"

// Group is a kernel group, as history's diff reads it.
type Group = analysis.Group

// GroupByName groups kernels by export and name, in first-seen order,
// keeping every canonical metric's samples.
func GroupByName(vs []*analysis.Kernel) []*Group {
	gr := analysis.NewGrouper(false)
	gr.BySource = true
	gr.KeepAllSamples()
	for _, v := range vs {
		gr.Add(v)
	}
	return gr.InOrder()
}

// SortedRules returns the rule IDs of m in order.
func SortedRules[T any](m map[string]T) []string { return sortedRules(m) }
