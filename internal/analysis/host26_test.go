package analysis_test

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/stats"
)

// withStackPairs renders, and holds, what fixtures/host26c measured of
// with_stack's cost: each process traced its step twice, with_stack and
// without (record_shapes both), in an order alternating by round, between
// two timings of its own. The replay's step without a lever, read on the
// two traces of one process, differs by with_stack's cost as the replay
// leaves it (s) and by the first profiling session's own slowness (f,
// either way the order goes): on spike.bf16's three processes, d = s + f
// where with_stack was traced first and s − f where it was second. Held:
// |s| within 5% of the step measured (the profiler's frame cost,
// profilerFrame, leaves with_stack's cost out of the replayed step), and
// every process's first trace replays within 0.75 to 1.25 of the median
// of its own six chunks (the steps the costs were fitted on are all first
// sessions: one trace a process).
func withStackPairs(t *testing.T, b *strings.Builder) {
	raw, err := os.ReadFile("../../fixtures/host26c/timings.tsv")
	if err != nil {
		t.Fatal(err)
	}
	byPid := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] {
		f := strings.Split(line, "\t")
		var ms float64
		if len(f) > 4 {
			if _, err := fmt.Sscan(f[4], &ms); err == nil {
				byPid[f[1]] = ms
			}
		}
	}
	raw, err = os.ReadFile("../../fixtures/host26c/chunks.tsv")
	if err != nil {
		t.Fatal(err)
	}
	chunks := map[string][]float64{} // by pid and phase
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] {
		f := strings.Split(line, "\t")
		var ms float64
		if len(f) > 7 {
			if _, err := fmt.Sscan(f[7], &ms); err == nil {
				chunks[f[1]+f[4]] = append(chunks[f[1]+f[4]], ms)
			}
		}
	}
	if len(chunks["917pre"]) != 3 || len(chunks["917post"]) != 3 {
		t.Fatalf("host26c/chunks.tsv: process 917's chunks: %v %v", chunks["917pre"], chunks["917post"])
	}
	b.WriteString(`
### with_stack, measured (fixtures/host26c)

Each process of ` + "`fixtures/host26c`" + ` (` + "`host26c.py`" + `) timed its step unprofiled, traced four ` + "`ProfilerStep#N`" + ` with
` + "`with_stack`" + ` and four without (` + "`record_shapes=True`" + ` both), in the order its round gives, and timed its step again;
"measured" is the median of its six chunks of 15 steps. The replayed step is the replay's step without a lever.

| trace | process | with_stack | traced first | frames | traced host | replayed | measured | replayed / measured |
| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |
`)
	type pair struct{ stack, nostack float64 }
	got := map[string]pair{}
	later := []float64{}
	for _, c := range []struct {
		file, pid  string
		stackFirst bool
	}{
		// The surviving pairs (fixtures/README.md, host26c): the pid
		// every event of a trace carries.
		{"r1.spike.bf16", "488", true},
		{"r3.spike.bf16", "799", true},
		{"r4.spike.bf16", "743", false},
		{"r4.spike.default", "860", true},
		{"r2.exit.default", "641", false},
		{"r4.exit.default", "917", true},
	} {
		ms := byPid[c.pid]
		if !(ms > 0) {
			t.Fatalf("host26c: no timing for pid %s", c.pid)
		}
		var p pair
		for _, stack := range []bool{true, false} {
			kind := map[bool]string{true: "stack", false: "nostack"}[stack]
			tl := fixtureGrouper(t, "host26c/"+c.file+"."+kind+".json.gz").Timeline
			_, frames, _, _ := analysis.ProfilerRecords(tl)
			rep := 1e3 * analysis.ReplayedStep(tl)
			first := stack == c.stackFirst
			if stack {
				p.stack = rep
			} else {
				p.nostack = rep
			}
			fmt.Fprintf(b, "| %s.%s | %s | %v | %v | %.0f | %.2f ms | %.2f ms | %.2f ms | %.2f |\n", c.file, kind, c.pid, stack, first, frames,
				1e3*analysis.TracedHost(tl), rep, ms, rep/ms)
			if !first {
				later = append(later, rep/ms)
			}
			if first && (rep/ms < 0.75 || rep/ms > 1.25) {
				t.Errorf("host26c/%s.%s, its process's first trace, replays at %.2f ms against %.2f measured (%.2f): outside 0.75 to 1.25", c.file, kind, rep, ms, rep/ms)
			}
		}
		got[c.pid] = p
	}
	// spike.bf16: with_stack first in 488 and 799, second in 743.
	sf := (got["488"].stack - got["488"].nostack + got["799"].stack - got["799"].nostack) / 2
	sl := got["743"].stack - got["743"].nostack
	s, f := (sf+sl)/2, (sf-sl)/2
	measured := stats.Median([]float64{byPid["488"], byPid["799"], byPid["743"]})
	fmt.Fprintf(b, `
On spike.bf16's three processes the replayed step with `+"`with_stack`"+` less the one without is %+.2f ms (the mean of the
two processes that traced it first) and %+.2f ms (the one that traced it second): with_stack's own cost as the replay
leaves it is %+.2f ms a step (%.1f%% of the %.2f ms measured), the first session's %+.2f ms. The profiled steps say
the same (`+"`fixtures/README.md`"+`, host26c: +5.8 and +3.7 ms with with_stack first, −5.2 ms with it second): a trace is
slower in a process's first profiling session than in a later one, whatever it records, and with_stack's own cost
is small beside that and beside the host's speed from process to process and within one (spike.bf16's chunks 18.96
to 28.40 ms; its backward thread's ops ran 1.7 to 2.2 times slower in one process's trace than in another's, its
main thread's not). The per-op cost of with_stack once inferred from host24's trace (with_stack, a first session)
against host25c's (without, a fourth session in its process) was that session's difference and the processes'
speeds, not with_stack's: the replay keeps its frame cost (`+"`profilerFrame`"+`) as it was. A later session's trace
(`+"`host24c`"+`'s and `+"`host25c`"+`'s second to fourth, `+"`host26c`"+`'s second) replays %.2f to %.2f of its process
here; the levers' rows read such traces only on host24c and host25c. On exit.default the step's host speed moves
within a process between its timing and its trace: process 917 timed chunks of %.2f, %.2f and %.2f ms before its
traces and %.2f, %.2f and %.2f after, its first trace replaying at %.2f ms; 641's two replay at %.2f and %.2f against
%.2f. host25's exit.default trace came from its r1 process (pid 1252), which timed 5.24 ms before tracing; its trace
replays at 6.52 ms (host25's other two processes timed 5.29 and 7.24): the state of the process at its trace, as
917's, not a cost per record.
`, sf, sl, s, 100*math.Abs(s)/measured, measured, f, slices.Min(later), slices.Max(later),
		chunks["917pre"][0], chunks["917pre"][1], chunks["917pre"][2], chunks["917post"][0], chunks["917post"][1], chunks["917post"][2],
		got["917"].stack, got["641"].nostack, got["641"].stack, byPid["641"])
	if math.Abs(s) > 0.05*measured {
		t.Errorf("host26c spike.bf16: with_stack's cost as the replay leaves it is %+.2f ms a step, over 5%% of the %.2f ms measured", s, measured)
	}
}
