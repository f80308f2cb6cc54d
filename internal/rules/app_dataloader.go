package rules

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// dataLoader advises DataLoader workers where the step's host thread
// loads its own batches.
var dataLoader = &Rule{
	ID:    "data-loader",
	Title: "The step's thread loads the data: DataLoader workers",
	Text: `With num_workers=0 a DataLoader reads, decodes, augments and collates each
batch in the training loop's own thread, inside the iterator's __next__
(torch.profiler names it enumerate(DataLoader)#…): the GPU has nothing queued
while it runs. Worker processes (num_workers, with persistent_workers and a
prefetch_factor) prepare the next batches while the step runs, and
pin_memory=True with .to(device, non_blocking=True) copies them without a
host sync. Where the loading calls numpy or another numerical library,
each worker's thread pool (OpenBLAS, OpenMP, MKL) starts a thread per core:
limit every worker to one (worker_init_fn with
threadpoolctl.threadpool_limits(1), or OMP_NUM_THREADS=1 set before numpy is
imported), or the workers oversubscribe the cores and load slower than the
one thread did (fixtures/host15b: four unlimited workers made an audio step
62% slower; limited, 71% faster).

Priced by replaying the step (docs/replay.md) with the iterator's time taken
off the launching thread, bounded by the loading time over four workers.`,
	Before: `loader = DataLoader(ds, batch_size=64, shuffle=True)
for x, y in loader:
    x, y = x.to("cuda"), y.to("cuda")`,
	After: `loader = DataLoader(ds, batch_size=64, shuffle=True, num_workers=4,
                    pin_memory=True, persistent_workers=True, prefetch_factor=4)
for x, y in loader:
    x, y = x.to("cuda", non_blocking=True), y.to("cuda", non_blocking=True)`,
	Severity: profan.Info,
	Cause:    CauseOwn,
	Scope:    Caller,
	Requires: []string{"timeline"},
	CheckApp: func(p *AppPass) {
		tl := p.timeline()
		data := tl.DataTime()
		if !(data > 0) {
			return
		}
		// Workers already load the batches: the launching thread's time
		// in the iterator is its wait on their queue, which more of the
		// same lever cannot be priced to remove (host15's audio step,
		// already on 4 workers, was priced at 85.8% of its wall).
		idle := tl.IdleOf(analysis.IdleData)
		for _, c := range idle.Calls {
			if strings.Contains(c.Name, "_MultiProcessingDataLoaderIter") {
				wait := idle.Seconds
				if tl.StepCount > 0 {
					wait /= float64(tl.StepCount)
				}
				if r, ok := tl.Replay(analysis.Lever{}); ok && r.Received >= verdict.NoiseShare*r.Base && r.Feed < r.Base {
					// The workers' pace does not bound the step: the
					// thread's time in the iterator is the batches'
					// transfer, not a wait.
					p.InUse("DataLoader workers load the batches (%s): the step's thread spends about %.2f ms a step (as replayed) receiving them from the workers' pipe, reading and unpickling each, which more workers do not shorten: tensors returned by the collate_fn cross in shared memory, and pin_memory=True's thread receives them (see pinned-memory)", c.Name, 1e3*r.Received)
					return
				}
				p.InUse("DataLoader workers load the batches (%s): the step's thread still waits about %.2f ms a step (as traced) on their queue, so the workers' throughput bounds the step: cheaper per-sample work, its preprocessing on the GPU, or more workers while the CPU has idle cores (check each worker's threads: a numerical library's thread pool in every worker can oversubscribe them)", c.Name, 1e3*wait)
				return
			}
		}
		lever := analysis.Lever{Workers: 4}
		gain, ok := p.replay(lever)
		if !ok || gain < 0.01 {
			return
		}
		r, _ := tl.Replay(analysis.Lever{})
		where := "the DataLoader's iterator"
		if c := tl.IdleOf(analysis.IdleData).Calls; len(c) > 0 {
			where = c[0].Name
		}
		msg := fmt.Sprintf("the step's thread spends about %.2f ms of each %.2f ms step loading data (%s; the trace's host time scaled to an unprofiled host)", 1e3*data, 1e3*r.Base, where)
		fix := "DataLoader(num_workers=4, pin_memory=True, persistent_workers=True, prefetch_factor=4) and .to(device, non_blocking=True); or move the preprocessing to the GPU"
		// The loading calls a numerical library with a thread pool of
		// its own: in each worker the pool starts as many threads as
		// cores, and the workers' pools oversubscribe the CPU
		// (fixtures/host15b: the audio step's 4 workers 234 to 269 ms a
		// step, 31 to 36 ms with one thread each, 114 to 118 ms without
		// workers).
		if n := loaderNumeric(p); n > 0 {
			steps := max(tl.StepCount, 1)
			msg += fmt.Sprintf("; the loading calls numpy or scipy about %d times a step, and in each worker their thread pools (OpenBLAS, OpenMP) start one thread per core", (n+steps-1)/steps)
			fix += "; limit each worker to one thread, or the workers' pools oversubscribe the cores and loading gets slower, not faster: worker_init_fn=lambda _: (threadpoolctl.threadpool_limits(1), torch.set_num_threads(1)), or OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 in the environment before numpy is imported"
		}
		p.recommendWall(analysis.Recommendation{
			Message:  msg,
			Fix:      fix,
			Lever:    &lever,
			Basis:    "the step replayed with the loading off its thread, bounded by the loading time over 4 workers",
			Composes: "with the host-read rules: with the loading gone, a sync no longer hides it",
		}, gain)
	},
}

// loaderNumeric counts the numerical libraries' calls inside the capture's
// DataLoader iterators (profan.Host.LoaderNumeric).
func loaderNumeric(p *AppPass) int {
	return p.hostCount(func(h *profan.Host) int { return h.LoaderNumeric })
}
