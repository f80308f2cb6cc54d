package ingest

import "github.com/profan-dev/profan"

// nvprofEvents reads nvprof's --events table: one row
// per (device, kernel, event) with integer Min/Max/Avg over the kernel's
// launches and, in newer nvprof, their Total. Events and metrics asked for
// together come as two tables, events first; each table yields its own
// Kernel records (sections "event" and "metric"), so such a file holds
// every kernel twice. The records are not merged because a streaming
// reader has already handed the event kernels to the sink when the metric
// table starts.
type nvprofEvents struct{}

func (nvprofEvents) Name() string { return "nvprof-events" }
func (nvprofEvents) Tool() string { return profan.ToolNvprof }

func (nvprofEvents) Match(h []string) bool {
	c := columnsOf(h)
	return nvprofAggregateHeader(h) && c.Has("Event Name") && !c.Has("Metric Name")
}

func (nvprofEvents) Parse(t *table) error {
	return parseNvprofAggregate(t, "nvprof-events", "event", "Event Name")
}
