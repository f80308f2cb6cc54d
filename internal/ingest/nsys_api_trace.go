package ingest

import (
	"math"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/units"
)

// nsysAPITrace reads Nsight Systems' CUDA API trace (nsys stats --report
// cuda_api_trace, cudaapitrace before 2023): one row per runtime or
// driver call of the host,
//
//	Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name
//
// with the units in the header names. It is the host side of the
// timeline, as a PyTorch trace's cuda_runtime events are: every call is
// summed by name into Run.APICalls; the calls that can hold the GPU idle
// (synchronisations, copies, memsets) are kept one by one in Run.Host, up
// to MaxHostEvents; a kernel launch call's end (a graph launch's start)
// is remembered by its CorrID, so that the kernels of the GPU trace of
// the same report (nsys stats --report cuda_api_trace,cuda_gpu_trace, in
// one export or two files: see readTraces and launchesAhead) know when
// they were queued.
type nsysAPITrace struct{}

func (nsysAPITrace) Name() string { return "nsys-api-trace" }
func (nsysAPITrace) Tool() string { return profan.ToolNsys }

func (nsysAPITrace) Match(h []string) bool {
	c, ok := nsysTraceColumns(h)
	return ok && c.Has("Name", "CorrID") && !c.Has("GrdX")
}

func (nsysAPITrace) Parse(t *table) error {
	const format = "nsys-api-trace"
	c := nsysColumns(t.Header)
	if err := needColumns(t, format, c, "Start", "Duration", "Name", "CorrID"); err != nil {
		return err
	}
	var tc traceColumns
	var err error
	if tc.start, err = nsysUnitColumn(t, c, units.Second, "ns", "Start"); err != nil {
		return err
	}
	if tc.dur, err = nsysUnitColumn(t, c, units.Second, "ns", "Duration"); err != nil {
		return err
	}
	name, corr, tid := c.Get("Name"), c.Get("CorrID"), c.Get("Tid")
	if tid < 0 {
		tid = c.Get("Thread Name")
	}
	run := t.s.run
	if run.Host == nil {
		run.Host = &profan.Host{Start: math.NaN(), End: math.NaN(), Rank: -1}
	}
	host, calls := run.Host, t.s.hostCalls()
	if t.s.acct.Records > 0 && len(calls.launched) == 0 {
		t.note(t.Line, "nsys API trace", "it comes after the GPU trace's kernels, which are not joined to their launch calls (a pipe is read once): give --report cuda_api_trace before cuda_gpu_trace, or the export as a file")
	}
	if calls.gpu {
		// The API trace of the next report (cat a.csv b.csv): its
		// CorrIDs start again.
		calls.reset()
	}
	calls.api = t.s.src
	end := math.NaN()
	sums := map[string]*profan.APICall{}
	var order []string
	// The host's spans, from the calls: in a launch call (launch
	// overhead proper), a sync, a copy or memset, the allocator. The
	// first API trace of a run gives them.
	spans := len(host.Spans) == 0
	sp := nsysSpans{idx: map[string]int{}}
	err = t.eachRow(format, "a header", func(r row) error {
		s, d, err := tc.times(t, r)
		if err != nil {
			return err
		}
		if math.IsNaN(s) || math.IsNaN(d) || d < 0 {
			return t.Errorf(r.Line, "call row has no start or duration")
		}
		n := t.Intern(r.Bytes(name))
		if strings.TrimSpace(n) == "" {
			return t.Errorf(r.Line, "call row has no name")
		}
		sum := sums[n]
		if sum == nil {
			if len(sums) >= maxNames {
				return t.Errorf(r.Line, "more than %d distinct CUDA call names (not a profiler export?)", maxNames)
			}
			sum = &profan.APICall{Name: n, Min: d, Max: d}
			sums[n] = sum
			order = append(order, n)
		}
		sum.Calls++
		sum.Total += d
		sum.Min, sum.Max = math.Min(sum.Min, d), math.Max(sum.Max, d)
		if math.IsNaN(host.Start) || s < host.Start {
			host.Start = s
		}
		if math.IsNaN(host.End) || s+d > host.End {
			host.End = s + d
		}
		if math.IsNaN(end) || s+d > end {
			end = s + d
		}
		id := strings.TrimSpace(r.String(corr))
		t.callTwice(n, r.String(tid), id, s, d, r.Line)
		if spans {
			sp.add(r.String(tid), n, s, d)
		}
		switch profan.CallClass(n) {
		case profan.CallLaunch:
			host.Launches++
			// A kernel is queued when its launch call returns; a graph's
			// kernels start while cudaGraphLaunch still runs, from its
			// start on.
			at := s + d
			graph := strings.Contains(n, "GraphLaunch")
			if graph {
				at = s
			}
			if first, ok := calls.launch(id, at, graph, r.Line); !ok {
				return t.Errorf(r.Line, "CorrID %s: the launch call at line %d has it too, and each call has its own (a row written twice, or of another report?)", id, first)
			}
		case profan.CallSync, profan.CallCopy, profan.CallSet:
			if len(host.Events) >= profan.MaxHostEvents {
				host.Folded++
				return nil
			}
			kind := profan.HostDriver
			if strings.HasPrefix(n, "cuda") {
				kind = profan.HostRuntime
			}
			host.Events = append(host.Events, &profan.HostEvent{Kind: kind, Name: n, Start: s, Duration: d,
				Thread: t.Intern(r.Bytes(tid)), Correlation: id})
		}
		return nil
	})
	if err != nil {
		return err
	}
	if math.IsNaN(calls.end) || end > calls.end {
		calls.end = end
	}
	if spans {
		host.Spans, _, host.SpansFolded = mergeSpans(sp.per, 0)
		host.SpanNames = sp.names.names
		host.SpansFolded += sp.folded
	}
	for _, n := range order {
		sum := sums[n]
		sum.Avg = sum.Total / float64(sum.Calls)
		if err := calls.add(t, sum, true, t.Line); err != nil {
			return err
		}
	}
	if host.Folded > 0 {
		t.note(t.Line, "host calls", "more than %d synchronising, copy and memset calls: the later %d are summed by name, not kept one by one", profan.MaxHostEvents, host.Folded)
	}
	return nil
}

// nsysSpans gathers an API trace's calls as the host's spans, per thread
// (the first maxLaunchers threads), up to MaxHostSpans records.
type nsysSpans struct {
	idx    map[string]int
	per    [][]spanRec
	names  spanNamer
	n      int
	folded int
}

// add records the call name on thread tid from s for d seconds: a launch
// call is launch overhead (HostDispatch), a sync, copy, memset or
// allocation call its own state; the rest (cudaEventRecord, ...) no span.
func (sp *nsysSpans) add(tid, name string, s, d float64) {
	st, _ := callState(&profan.HostEvent{Name: name})
	if profan.CallClass(name) == profan.CallLaunch {
		st = profan.HostDispatch
	}
	if st == profan.HostNone || !(d > 0) {
		return
	}
	if sp.n >= profan.MaxHostSpans {
		sp.folded++
		return
	}
	i, ok := sp.idx[tid]
	if !ok {
		if len(sp.per) == maxLaunchers {
			return
		}
		i = len(sp.per)
		sp.idx[tid] = i
		sp.per = append(sp.per, nil)
	}
	if sp.names.idx == nil {
		sp.names.idx = map[string]int32{}
	}
	a, b := int64(math.Round(s*1e9)), int64(math.Round((s+d)*1e9))
	recs := sp.per[i]
	if n := len(recs); n > 0 {
		// One thread's calls do not overlap (a driver call inside a
		// runtime call is the runtime call's); out of order, dropped.
		a = max(a, recs[n-1].end)
	}
	if b <= a {
		return
	}
	sp.per[i] = append(recs, spanRec{start: a, end: b, state: st, name: sp.names.of(name)})
	sp.n++
}

// nsysHost is the host side an nsys export's tables share: the host calls
// by name, each kept once whether a summary or a trace gave it, and the
// kernel launch calls by correlation ID.
type nsysHost struct {
	byName   map[apiKey]apiSeen
	launched map[int64]launchAt // CorrID → its kernel launch call
	// end is when the API trace's last call ended (s), NaN before one is
	// read; api is the file it was read from.
	end  float64
	api  string
	gpu  bool // a GPU trace was read since the API trace
	late int  // kernels past the API trace's end, without a launch call
}

// launchAt is when a launch call queued its work (s), its line, whether it
// is a graph's, whose kernels share its CorrID, and the line of the
// first kernel of the GPU trace with it (0: none yet).
type launchAt struct {
	at     float64
	line   int32
	graph  bool
	kernel int32
}

func newNsysHost() *nsysHost {
	return &nsysHost{byName: map[apiKey]apiSeen{}, launched: map[int64]launchAt{}, end: math.NaN()}
}

// reset forgets the launch calls and CorrIDs of the report read before.
func (h *nsysHost) reset() {
	h.launched, h.end, h.gpu, h.late = map[int64]launchAt{}, math.NaN(), false, 0
}

type apiKey struct {
	name string
	os   bool
}

type apiSeen struct {
	calls int
	trace bool // summed from a trace, not a summary's row
}

// hostCalls returns the stream's host state, made on first use.
func (s *stream) hostCalls() *nsysHost { return stateOf(&s.states, newNsysHost) }

// add records the calls c: a summary (cuda_api_sum) and a trace
// (cuda_api_trace) of the same export hold the same calls, which are kept
// once, said in a note; anything else is a row of its own (two processes'
// exports one after the other).
func (h *nsysHost) add(t *table, c *profan.APICall, trace bool, line int) error {
	k := apiKey{c.Name, c.OS}
	if seen, ok := h.byName[k]; ok && seen.trace != trace && seen.calls == c.Calls {
		t.note(line, "nsys API calls", "the API summary and the API trace hold the same calls: each counted once")
		t.s.records++
		return nil
	}
	if len(h.byName) >= maxNames {
		return t.Errorf(line, "more than %d distinct host call names (not a profiler export?)", maxNames)
	}
	h.byName[k] = apiSeen{calls: c.Calls, trace: trace}
	t.API(c)
	return nil
}

// launch remembers when the launch call of correlation ID id queued its
// work, bounded by maxLaunched; a second launch call of one CorrID is not
// kept (ok false), and first is the line of the first.
func (h *nsysHost) launch(id string, at float64, graph bool, line int) (first int, ok bool) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return 0, true
	}
	if c, seen := h.launched[n]; seen {
		return int(c.line), false
	}
	if len(h.launched) < maxLaunched {
		h.launched[n] = launchAt{at: at, line: int32(min(line, math.MaxInt32)), graph: graph}
	}
	return 0, true
}

// gpuKernel joins a kernel of the GPU trace to its launch call when an
// API trace of the export (or given with it) was read: a kernel whose
// CorrID no launch call has though the API trace runs past its start, or
// that starts before its launch call returned, is of another capture; a
// CorrID that two kernels share is refused unless its call is a graph
// launch's. Kernels past the API trace's end are counted (late).
func (h *nsysHost) gpuKernel(t *table, k *profan.Kernel, line int) error {
	h.gpu = true
	n, err := strconv.ParseInt(k.ID, 10, 64)
	if err != nil || math.IsNaN(h.end) || len(h.launched) >= maxLaunched {
		return nil
	}
	call, known := h.launched[n]
	switch {
	case known && call.kernel > 0 && !call.graph:
		return t.Errorf(line, "kernel %s (CorrId %s): the kernel at line %d has its CorrId, and its launch call launches one kernel (a row written twice, or of another capture?)", shorten(k.Name, 60), k.ID, call.kernel)
	case known && call.kernel == 0:
		call.kernel = int32(min(line, math.MaxInt32))
		h.launched[n] = call
	}
	switch {
	case !known && k.Start <= h.end:
		return t.Errorf(line, "kernel %s (CorrId %s) at %.6f s has no launch call in %s, whose calls run until %.6f s: the traces are of different captures (give each report's traces together)",
			shorten(k.Name, 60), k.ID, k.Start, safe.Term(h.api), h.end)
	case !known:
		h.late++
	case k.Start < call.at-launchSlack:
		return t.Errorf(line, "kernel %s (CorrId %s) starts at %.6f s, before its launch call in %s returned at %.6f s: the traces are of different captures (give each report's traces together)",
			shorten(k.Name, 60), k.ID, k.Start, safe.Term(h.api), call.at)
	}
	return nil
}

// launchedAt is when the launch call of the kernel of correlation ID id
// queued it, read from an API trace earlier in the export; NaN when
// unknown.
func (s *stream) launchedAt(id string) float64 {
	h := stateIf[nsysHost](s.states)
	if h == nil {
		return math.NaN()
	}
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return math.NaN()
	}
	if c, ok := h.launched[n]; ok {
		return c.at
	}
	return math.NaN()
}
