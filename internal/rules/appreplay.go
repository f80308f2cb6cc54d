package rules

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/profan-dev/profan/internal/analysis"
)

// replayAll prices each recommendation priced in kernel time (a NaN
// WallGain and its Saves) by replayKernels, side by side on up to
// GOMAXPROCS goroutines: each replay reads the timeline (its base made
// once, behind a sync.Once) and its own lever only, and writes its own
// recommendation, so the order they run in changes nothing. The
// advice's replays run after the trace is read, when the reading's core
// is idle.
func replayAll(tl *analysis.Timeline, recs []analysis.Recommendation) {
	var todo []int
	for i := range recs {
		if r := &recs[i]; r.WallGain != r.WallGain && len(r.Saves) > 0 {
			todo = append(todo, i)
		}
	}
	price := func(i int) {
		r := &recs[i]
		r.WallGain, r.Lever = replayKernels(tl, r.Saves, r.Lever)
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	if workers <= 1 || tl == nil || tl.Steps == nil {
		for _, i := range todo {
			price(i)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for n := next.Add(1) - 1; n < int64(len(todo)); n = next.Add(1) - 1 {
			price(todo[n])
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}
