package ingest

import (
	"slices"

	"github.com/profan-dev/profan"
)

// An nvprof --metrics or --events export holds, per kernel, aggregates
// over its launches from a run of its own: nvprof replays the application
// to collect counters. Given with a trace of the same program (nvprof's
// or nsys's GPU trace, a PyTorch trace), its counters belong to the
// trace's launches of the same kernel: the two are joined by kernel name
// (and device) and invocation count, so that a kernel is counted once, with
// the trace's times and the replay's counters, and not twice (301 traced
// launches and an aggregate of 301 more).

// replayFormat reports whether format is an export of per-kernel
// aggregates from nvprof's replay.
func replayFormat(format string) bool { return format == "nvprof-metrics" || format == "nvprof-events" }

// launchTrace reports whether format is a trace of single launches that
// a replay's aggregates join.
func launchTrace(format string) bool {
	return format == "nvprof-gputrace" || format == "nsys-gputrace" || format == "pytorch-trace"
}

// replays holds the aggregates of replay exports read beside a trace.
type replays struct {
	runs   []*profan.Run
	funcs  funcIndex // function → its aggregates
	run    map[*profan.Kernel]*profan.Run
	joined map[*profan.Kernel]int // aggregate → trace launches joined
	trace  map[*profan.Run]string // replay run → the first trace joined
}

func newReplays() *replays {
	return &replays{funcs: newFuncIndex(),
		run: map[*profan.Kernel]*profan.Run{}, joined: map[*profan.Kernel]int{}, trace: map[*profan.Run]string{}}
}

func (rp *replays) add(run *profan.Run) {
	rp.runs = append(rp.runs, run)
	for _, k := range run.Kernels {
		rp.funcs.add(k)
		rp.run[k] = run
	}
}

// attach gives a traced launch k the counters of the aggregates of its
// kernel (one per replay export, on k's device when both name one).
func (rp *replays) attach(run *profan.Run, k *profan.Kernel) {
	if rp == nil || len(rp.runs) == 0 || k.Invocations != 1 {
		return
	}
	_, q := rp.funcs.find(k)
	taken := map[*profan.Run]bool{}
	for _, a := range q {
		if a.Device != "" && k.Device != "" && a.Device != k.Device {
			continue
		}
		r := rp.run[a]
		if taken[r] {
			continue // one aggregate per export (a kernel whose rows came back)
		}
		taken[r] = true
		for _, m := range a.Metrics {
			if _, ok := k.Metric(m.Name); !ok {
				k.AddMetric(m)
			}
		}
		rp.joined[a]++
		if _, ok := rp.trace[r]; !ok {
			rp.trace[r] = run.Source
		}
	}
}

// finish records on each replay run how it joined, and hands the
// aggregates no traced launch took to fn, as records of their own.
func (rp *replays) finish(fn func(*profan.Run, *profan.Kernel) error) error {
	if rp == nil {
		return nil
	}
	for _, r := range rp.runs {
		j := &profan.ReplayJoin{Trace: rp.trace[r], Kernels: len(r.Kernels)}
		for _, a := range r.Kernels {
			n := rp.joined[a]
			if n == 0 {
				if err := fn(r, a); err != nil {
					return err
				}
				continue
			}
			j.Joined++
			j.Invocations += a.Invocations
			j.Launches += n
			if n != a.Invocations && len(j.Unequal) < 8 {
				j.Unequal = append(j.Unequal, a.DisplayName())
			}
		}
		if j.Joined > 0 {
			r.Replay = j
		}
	}
	return nil
}

// splitReplays reads the replay exports among files when a trace of
// launches is among them too, and returns them indexed (nil when none is
// read), with the other files, still open.
func splitReplays(files []*File, opt Options) (*replays, []*File, error) {
	if opt.Format != "" || !slices.ContainsFunc(files, func(f *File) bool { return launchTrace(f.Format()) }) {
		return nil, files, nil
	}
	var rp *replays
	var rest []*File
	for i, f := range files {
		if !replayFormat(f.Format()) {
			rest = append(rest, f)
			continue
		}
		run, err := f.Read(Options{Context: opt.Context}, Sink{})
		f.Close()
		if err != nil {
			for _, g := range files[i+1:] {
				g.Close()
			}
			for _, g := range rest {
				g.Close()
			}
			return nil, nil, err
		}
		if rp == nil {
			rp = newReplays()
		}
		rp.add(run)
	}
	return rp, rest, nil
}

// funcIndex holds kernels by the function they run, as sourceName reads
// a name: whole, and without template arguments (an export printed with
// --print-kernel-base). The source pages and the replays index their
// kernels so.
type funcIndex struct {
	full, bare map[string][]*profan.Kernel
}

func newFuncIndex() funcIndex {
	return funcIndex{full: map[string][]*profan.Kernel{}, bare: map[string][]*profan.Kernel{}}
}

func (ix funcIndex) add(k *profan.Kernel) {
	full, bare := sourceName(k.DisplayName())
	ix.full[full] = append(ix.full[full], k)
	ix.bare[bare] = append(ix.bare[bare], k)
}

// find returns the kernels of k's function, by its whole name, else by
// its name without template arguments, with the key they are under ("f"
// or "b" and the name).
func (ix funcIndex) find(k *profan.Kernel) (string, []*profan.Kernel) {
	full, bare := sourceName(k.DisplayName())
	if q := ix.full[full]; len(q) > 0 {
		return "f" + full, q
	}
	return "b" + bare, ix.bare[bare]
}
