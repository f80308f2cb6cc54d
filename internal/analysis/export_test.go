package analysis

// What only the package's tests call.

// Summarize reads groups (ranked, with shares) by cause. total is the
// capture's kernel time; procs and devices count the processes and GPUs
// the launches came from; rec gives the recommendations (nil: none).
func Summarize(gs []*Group, total float64, procs, devices int, rec Recommender) *App {
	return summarize(&AppEvidence{Groups: gs, Total: total}, procs, devices, rec)
}

// JoinKey is joinKey, for the join's tests.
var JoinKey = joinKey
