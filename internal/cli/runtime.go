package cli

import (
	"runtime/debug"
)

// DefaultMemoryLimit is the soft memory limit profan sets when GOMEMLIMIT
// is not: exports stream through in a few MB, and the limit keeps the heap
// near that while the collector runs at 200 %.
const DefaultMemoryLimit = 48 << 20

// SetRuntimeDefaults tunes the garbage collector for streaming exports:
// GOGC 200 unless GOGC is set, and a soft memory limit of
// DefaultMemoryLimit unless GOMEMLIMIT is set (a user who sets either
// knows their machine better). cmd/profan and the tests that re-execute
// themselves as profan call it.
func SetRuntimeDefaults(getenv func(string) string) {
	if getenv("GOGC") == "" {
		// Fewer collections: the rate matters on GB-scale exports.
		debug.SetGCPercent(200)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(DefaultMemoryLimit)
	}
}
