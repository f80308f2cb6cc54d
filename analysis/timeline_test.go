package analysis_test

import (
	"encoding/csv"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/ingest"
)

// sweepShare is the reference busy share of a list of intervals, made
// apart from the timeline's code: the endpoints sorted, a counter of the
// intervals open, the time it is above zero over the first start to the
// last end.
func sweepShare(iv [][2]float64) (busy, span float64) {
	type ev struct {
		t float64
		d int
	}
	var evs []ev
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range iv {
		evs = append(evs, ev{x[0], 1}, ev{x[1], -1})
		lo, hi = math.Min(lo, x[0]), math.Max(hi, x[1])
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t != evs[j].t {
			return evs[i].t < evs[j].t
		}
		return evs[i].d > evs[j].d
	})
	open, last := 0, 0.0
	for _, e := range evs {
		if open > 0 {
			busy += e.t - last
		}
		open += e.d
		last = e.t
	}
	return busy, hi - lo
}

// rawIntervals reads the start and duration columns of a trace CSV with
// encoding/csv: startCol and durCol by header name, scaled by the given
// factors to seconds; rows before the header and the units row skipped.
func rawIntervals(t *testing.T, path, startCol, durCol string, startScale, durScale float64) [][2]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]float64
	si, di := -1, -1
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "==") || strings.TrimSpace(line) == "" {
			continue
		}
		r := csv.NewReader(strings.NewReader(line))
		rec, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if si < 0 {
			for i, h := range rec {
				switch h {
				case startCol:
					si = i
				case durCol:
					di = i
				}
			}
			continue
		}
		s, err1 := strconv.ParseFloat(rec[si], 64)
		d, err2 := strconv.ParseFloat(rec[di], 64)
		if err1 != nil || err2 != nil {
			continue // the units row
		}
		out = append(out, [2]float64{s * startScale, s*startScale + d*durScale})
	}
	return out
}

// TestTimelineBusyShare holds the GPU busy share of real traces to the
// share computed from their raw rows.
func TestTimelineBusyShare(t *testing.T) {
	for _, c := range []struct {
		path, start, dur string
		ss, ds           float64
	}{
		{"../ingest/testdata/nvprof/tkm-gtx950-maxwell-two-streams.csv", "Start", "Duration", 1e-3, 1e-6},
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", "Start", "Duration", 1e-3, 1e-3},
		{"../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv", "Start(sec)", "Duration(nsec)", 1, 1e-9},
	} {
		run, err := ingest.ReadFile(c.path, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := analysis.AnalyzeRun(run, analysis.Options{})
		tl := v.Timeline
		if tl == nil {
			t.Fatalf("%s: no timeline", c.path)
		}
		busy, span := sweepShare(rawIntervals(t, c.path, c.start, c.dur, c.ss, c.ds))
		if d := math.Abs(tl.BusyShare - busy/span); d > 0.03 {
			t.Errorf("%s: busy share %.4f, raw rows give %.4f", c.path, tl.BusyShare, busy/span)
		}
		var idle float64
		for _, i := range tl.Idle {
			idle += i.Seconds
		}
		if math.Abs(tl.Busy+idle-tl.Span) > 1e-9*math.Max(1, tl.Span) {
			t.Errorf("%s: busy %g + idle %g != span %g", c.path, tl.Busy, idle, tl.Span)
		}
		t.Logf("%s: span %.6f s busy %.4f (raw %.4f) idle %+v streams %d", c.path, tl.Span, tl.BusyShare, busy/span, tl.Idle, len(tl.Devices[0].Streams))
	}
}
