package gate_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gate"
	"github.com/profan-dev/profan/internal/ingest"
)

func traceVerdict(t *testing.T, name string) *analysis.RunVerdict {
	t.Helper()
	run, err := ingest.ReadFile("../../fixtures/timeline/"+name+".json.gz", ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return analysis.AnalyzeRun(run, analysis.Options{})
}

// TestTimelineGate: 'gpu_busy >= 50%' fails the eager decode step (8% busy)
// and passes its CUDA-graph twin (76%); against the twin as baseline the
// eager step is an idle regression naming the launch-bound idle and the
// user's Python.
func TestTimelineGate(t *testing.T) {
	eager, graphs := traceVerdict(t, "decode_sync"), traceVerdict(t, "decode_graphs")
	c, err := gate.ParseCondition("gpu_busy >= 50%")
	if err != nil || c.Value != 0.5 {
		t.Fatalf("condition %+v, %v", c, err)
	}
	for _, tt := range []struct {
		v    *analysis.RunVerdict
		fail int
	}{{eager, 1}, {graphs, 0}} {
		r, err := gate.Evaluate(gate.Policy{Conditions: []gate.Condition{c}}, analysis.NewGrouper(false), []*analysis.RunVerdict{tt.v}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Failed != tt.fail || len(r.Checks) != 1 || !strings.Contains(r.Checks[0].Message, "launch-bound") {
			t.Errorf("%s: %d failed of %+v", tt.v.Run.Source, r.Failed, r.Checks)
		}
	}
	p := gate.Policy{MaxRegression: 0.1, BaseTimeline: graphs.Timeline, AllowMissing: true}
	r, err := gate.Evaluate(p, analysis.NewGrouper(false), []*analysis.RunVerdict{eager}, analysis.NewGrouper(false))
	if err != nil {
		t.Fatal(err)
	}
	// The causes that grew are named in the timeline's order (host sync
	// first); the launch-bound idle and the user's Python are among them.
	last := r.Checks[len(r.Checks)-1]
	_, grew, ok := strings.Cut(last.Message, "; idle grew: ")
	if r.Failed != 1 || last.Name != "gpu_busy" || !ok || !strings.Contains(grew, "launch-bound ") || !strings.Contains(grew, "other Python ") {
		t.Errorf("idle regression: %+v", r.Checks)
	}
	// A condition on the timeline of exports without one checks nothing.
	ncu := &analysis.RunVerdict{Run: eager.Run}
	_, err = gate.Evaluate(gate.Policy{Conditions: []gate.Condition{c}}, analysis.NewGrouper(false), []*analysis.RunVerdict{ncu}, nil)
	var miss *gate.MissingMetricError
	if !errors.As(err, &miss) || !strings.Contains(err.Error(), "timeline") {
		t.Errorf("no timeline: %v", err)
	}
}

// TestTimelineGateHostCauses: the idle causes of the host's activity are
// metrics a condition names: the MoE step of fixtures/host8, fed by a
// DataLoader in the main process, fails 'idle_data < 10%'; its
// launch-bound share is not where the loading went.
func TestTimelineGateHostCauses(t *testing.T) {
	run, err := ingest.ReadFile("../../fixtures/host8/moe.default.json.gz", ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := analysis.AnalyzeRun(run, analysis.Options{})
	for _, tt := range []struct {
		cond string
		fail int
	}{{"idle_data < 10%", 1}, {"idle_python < 50%", 0}, {"idle_alloc < 5%", 0}} {
		c, err := gate.ParseCondition(tt.cond)
		if err != nil {
			t.Fatalf("%s: %v", tt.cond, err)
		}
		r, err := gate.Evaluate(gate.Policy{Conditions: []gate.Condition{c}}, analysis.NewGrouper(false), []*analysis.RunVerdict{v}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.cond, err)
		}
		if r.Failed != tt.fail || len(r.Checks) != 1 || !strings.Contains(r.Checks[0].Message, "data loading") {
			t.Errorf("%s: %d failed of %+v", tt.cond, r.Failed, r.Checks)
		}
	}
}
