package cli

import (
	"runtime/debug"
)

// DefaultMemoryLimit is the soft memory limit profan sets when GOMEMLIMIT
// is not: exports stream through in a few MB, and the limit keeps the heap
// near that while the collector runs at 200 %. It is above what a CSV
// export needs (the heap goals of a 100 MB ingest or analyze stay under
// 32 MB): at 48 MiB a 1 GB PyTorch trace, whose bounded host spans and
// replay hold about 52 MB live, was collected back to back (267 cycles,
// the write barrier always on), for 17 % more CPU time than at 96 MiB
// and 12 MB less peak RSS (103 against 115 MB; bench/torch.sh).
const DefaultMemoryLimit = 96 << 20

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
