package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// timelineLines is a timeline in a few lines: the wall span and the GPU
// busy share, the idle time by cause with the calls behind it, the
// copies.
func timelineLines(tl *verdict.Timeline) []string {
	streams := 0
	for _, d := range tl.Devices {
		streams += len(d.Streams)
	}
	head := fmt.Sprintf("wall %s · GPU busy %s (%s) · %s, %d launches, %s", metrics.Format(tl.Span, "s"),
		metrics.ShareText(tl.BusyShare), metrics.Format(tl.Busy, "s"), tl.Device, tl.LaunchCount, plural(streams, "stream"))
	if hl := tl.HostLaunch; hl.Calls > 0 {
		head += fmt.Sprintf(" · host launch %s × %d", metrics.Format(hl.Mean, "s"), hl.Calls)
	}
	out := []string{head}
	if len(tl.Idle) > 0 {
		var parts []string
		idle := 0.0
		for _, i := range tl.Idle {
			idle += i.Seconds
			p := fmt.Sprintf("%s %s", verdict.IdleLabel(i.Cause), metrics.ShareText(i.Share))
			if len(i.Calls) > 0 {
				p += " (" + callText(i.Calls[0])
				if n := len(i.Calls) - 1; n > 0 {
					p += fmt.Sprintf(", %d more", n)
				}
				p += ")"
			}
			parts = append(parts, p)
		}
		out = append(out, fmt.Sprintf("idle %s: %s", metrics.ShareText(idle/math.Max(tl.Span, 1e-300)), strings.Join(parts, ", ")))
	}
	if tl.Copies > 0 {
		out = append(out, fmt.Sprintf("copies: %s on the critical path, %s beside kernels", metrics.Format(tl.CopyExposed, "s"), metrics.Format(tl.Overlap, "s")))
	}
	for _, n := range tl.Notes {
		out = append(out, "note: "+n)
	}
	return out
}

// callText is a host call behind idle time: the call, the op and frame
// around it, how often.
func callText(c verdict.IdleCall) string {
	s := c.Name
	if c.Op != "" {
		s += " in " + c.Op
	}
	if c.Frame != "" {
		s += " at " + c.Frame
	}
	return fmt.Sprintf("%s ×%d", s, c.Count)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "ch") || strings.HasSuffix(what, "sh") || strings.HasSuffix(what, "s") {
		return fmt.Sprintf("%d %ses", n, what) // launches
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// jsonTimeline is the JSON form of a run's timeline: seconds, shares of
// the span (0-1).
type jsonTimeline struct {
	Device      string           `json:"device"`
	Span        float64          `json:"span"`
	Busy        float64          `json:"gpu_busy"`
	BusyShare   float64          `json:"gpu_busy_share"`
	Idle        []jsonIdle       `json:"idle"`
	Overlap     float64          `json:"copy_compute_overlap"`
	CopyExposed float64          `json:"copy_exposed"`
	Launches    int              `json:"launches"`
	Copies      int              `json:"copies"`
	Memsets     int              `json:"memsets"`
	HostLaunch  *jsonHostLaunch  `json:"host_launch,omitempty"`
	Devices     []jsonDeviceSpan `json:"devices"`
	Notes       []string         `json:"notes,omitempty"`
}

// jsonIdle is the idle time of one cause.
type jsonIdle struct {
	Cause   string         `json:"cause"`
	Seconds float64        `json:"seconds"`
	Share   float64        `json:"share"`
	Gaps    int            `json:"gaps"`
	Calls   []jsonIdleCall `json:"calls,omitempty"`
}

// jsonIdleCall is a host call behind idle time.
type jsonIdleCall struct {
	Name  string `json:"name"`
	Op    string `json:"op,omitempty"`
	Frame string `json:"frame,omitempty"`
	// Method is the Tensor method the user called (tolist, item, cpu),
	// which tells apart calls of one name, op and frame.
	Method  string  `json:"method,omitempty"`
	Count   int     `json:"count"`
	Seconds float64 `json:"seconds"`
}

// jsonHostLaunch is what a launch costs the host, measured.
type jsonHostLaunch struct {
	Calls  int     `json:"calls"`
	Mean   float64 `json:"mean"`
	Total  float64 `json:"total"`
	Graphs int     `json:"graph_launches,omitempty"`
}

// jsonDeviceSpan is one device's timeline, with its streams.
type jsonDeviceSpan struct {
	Device    string            `json:"device"`
	Span      float64           `json:"span"`
	Busy      float64           `json:"gpu_busy"`
	BusyShare float64           `json:"gpu_busy_share"`
	Idle      []jsonIdle        `json:"idle"`
	Streams   []jsonStreamSpans `json:"streams"`
}

// jsonStreamSpans is one stream's busy time.
type jsonStreamSpans struct {
	Stream    string  `json:"stream"`
	Span      float64 `json:"span"`
	Busy      float64 `json:"busy"`
	BusyShare float64 `json:"busy_share"`
	Kernels   int     `json:"kernels"`
	Copies    int     `json:"copies"`
	Memsets   int     `json:"memsets"`
}

func toJSONIdle(is []verdict.Idle) []jsonIdle {
	out := make([]jsonIdle, 0, len(is))
	for _, i := range is {
		ji := jsonIdle{Cause: i.Cause, Seconds: i.Seconds, Share: i.Share, Gaps: i.Gaps}
		for _, c := range i.Calls {
			ji.Calls = append(ji.Calls, jsonIdleCall{Name: c.Name, Op: c.Op, Frame: c.Frame, Method: c.Method, Count: c.Count, Seconds: c.Seconds})
		}
		out = append(out, ji)
	}
	return out
}

// toJSONTimeline converts a timeline; nil stays nil.
func toJSONTimeline(tl *verdict.Timeline) *jsonTimeline {
	if tl == nil {
		return nil
	}
	j := &jsonTimeline{Device: tl.Device, Span: tl.Span, Busy: tl.Busy, BusyShare: tl.BusyShare, Idle: toJSONIdle(tl.Idle),
		Overlap: tl.Overlap, CopyExposed: tl.CopyExposed, Launches: tl.LaunchCount, Copies: tl.Copies, Memsets: tl.Sets, Notes: tl.Notes}
	if hl := tl.HostLaunch; hl.Calls > 0 || hl.Graphs > 0 {
		j.HostLaunch = &jsonHostLaunch{Calls: hl.Calls, Mean: hl.Mean, Total: hl.Total, Graphs: hl.Graphs}
		if math.IsNaN(hl.Mean) {
			j.HostLaunch.Mean = 0
		}
	}
	for _, d := range tl.Devices {
		jd := jsonDeviceSpan{Device: d.Device, Span: d.Span, Busy: d.Busy, BusyShare: d.BusyShare, Idle: toJSONIdle(d.Idle)}
		for _, s := range d.Streams {
			jd.Streams = append(jd.Streams, jsonStreamSpans{Stream: s.Stream, Span: s.Span, Busy: s.Busy, BusyShare: s.BusyShare,
				Kernels: s.Kernels, Copies: s.Copies, Memsets: s.Sets})
		}
		j.Devices = append(j.Devices, jd)
	}
	return j
}

// joinLine says how a trace's kernels joined an ncu export's.
func joinLine(j verdict.Join) string {
	if r := j.Replay; r != nil {
		s := fmt.Sprintf("joined %s to %s by kernel name and invocation count: %d of its %d kernels, %d invocations, on %d traced launches; nvprof replays the program to collect counters, so the counters and the times come from two runs of it",
			j.Export, j.Trace, r.Joined, r.Kernels, r.Invocations, r.Launches)
		if len(r.Unequal) > 0 {
			s += fmt.Sprintf(" (the runs launched %s a different number of times: its counters are the replay's average)", strings.Join(r.Unequal, ", "))
		}
		return s
	}
	s := fmt.Sprintf("joined %s to %s: %d of %d trace launches matched %d ncu launches by name and order (%d with the same grid and block)",
		j.Trace, j.Export, j.Matched, j.TraceLaunches, j.ExportLaunch, j.SameShape)
	if j.CountedOnce {
		s += "; one capture: its kernels are counted once, from the ncu export (counters and kernel times), the trace giving the timeline"
	}
	return s
}

// jsonJoin is the JSON form of a join.
type jsonJoin struct {
	Trace         string `json:"trace"`
	Export        string `json:"export"`
	TraceLaunches int    `json:"trace_launches"`
	ExportLaunch  int    `json:"export_launches"`
	Matched       int    `json:"matched"`
	SameShape     int    `json:"same_grid_and_block"`
	// Replay is set for an nvprof metrics or events export joined by
	// kernel name and invocation count: its counters come from a run of
	// their own.
	Replay *jsonReplay `json:"replay,omitempty"`
	// CountedOnce: the trace's kernels are counted once, from the export.
	CountedOnce bool `json:"counted_once,omitempty"`
}

type jsonReplay struct {
	Kernels     int      `json:"kernels"`
	Joined      int      `json:"kernels_joined"`
	Invocations int      `json:"invocations"`
	Launches    int      `json:"trace_launches"`
	Unequal     []string `json:"unequal_counts,omitempty"`
}

func toJSONJoins(js []verdict.Join) []jsonJoin {
	out := make([]jsonJoin, 0, len(js))
	for _, j := range js {
		jj := jsonJoin{Trace: j.Trace, Export: j.Export, TraceLaunches: j.TraceLaunches, ExportLaunch: j.ExportLaunch, Matched: j.Matched, SameShape: j.SameShape, CountedOnce: j.CountedOnce}
		if r := j.Replay; r != nil {
			jj.Replay = &jsonReplay{Kernels: r.Kernels, Joined: r.Joined, Invocations: r.Invocations, Launches: r.Launches, Unequal: r.Unequal}
		}
		out = append(out, jj)
	}
	return out
}

// hostCalls are the host calls an nsys export's API summaries or API
// trace hold, CUDA API and OS runtime; none for other tools' runs (a
// PyTorch trace's calls show on its timeline).
func hostCalls(run *profan.Run) []*profan.APICall {
	if run.Tool != profan.ToolNsys {
		return nil
	}
	return run.APICalls
}

// hostCallLines are the host's time per call of an nsys export: the CUDA
// API calls, then the OS runtime calls, each with its total and its three
// longest calls.
func hostCallLines(run *profan.Run) []string {
	var out []string
	for _, os := range []bool{false, true} {
		var calls []*profan.APICall
		total, n := 0.0, 0
		for _, c := range hostCalls(run) {
			if c.OS == os && !math.IsNaN(c.Total) {
				calls = append(calls, c)
				total += c.Total
				n += c.Calls
			}
		}
		if len(calls) == 0 {
			continue
		}
		slices.SortStableFunc(calls, func(a, b *profan.APICall) int { return cmp.Compare(b.Total, a.Total) })
		what := "CUDA API"
		if os {
			what = "OS runtime"
		}
		var parts []string
		for _, c := range calls[:min(3, len(calls))] {
			p := fmt.Sprintf("%s %s ×%d", c.Name, metrics.Format(c.Total, "s"), c.Calls)
			if total > 0 {
				p += " (" + metrics.ShareText(c.Total/total) + ")"
			}
			parts = append(parts, p)
		}
		if more := len(calls) - 3; more > 0 {
			parts = append(parts, fmt.Sprintf("%d more", more))
		}
		out = append(out, fmt.Sprintf("host %s %s in %d calls: %s", what, metrics.Format(total, "s"), n, strings.Join(parts, ", ")))
	}
	return out
}

// jsonHostCall is the host's time in the calls of one name (seconds).
type jsonHostCall struct {
	Name  string   `json:"name"`
	OS    bool     `json:"os_runtime,omitempty"`
	Calls int      `json:"calls"`
	Total *float64 `json:"total_s"`
	Avg   *float64 `json:"avg_s"`
	Min   *float64 `json:"min_s"`
	Max   *float64 `json:"max_s"`
}

func toJSONHostCalls(run *profan.Run) []jsonHostCall {
	var out []jsonHostCall
	for _, c := range hostCalls(run) {
		out = append(out, jsonHostCall{Name: c.Name, OS: c.OS, Calls: c.Calls, Total: ptr(c.Total), Avg: ptr(c.Avg), Min: ptr(c.Min), Max: ptr(c.Max)})
	}
	return out
}
