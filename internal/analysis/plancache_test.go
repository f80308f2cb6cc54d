package analysis_test

import (
	"math"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
)

// TestPlanCache holds the plan cache's reading of the two traces whose
// ops build a plan per shape (docs/replay.md, "The plan cache"): on
// fixtures/host27's prune.bf16 cuDNN's SDPA builds 3 plans in the forward
// and 3 in the backward over four steps, at 6 distinct shapes each: one a
// pass grows the range (103 tokens, under the 144 and 145 before it), two
// fill it (109 and 136); on fixtures/host26's spec.bf16 the K/V caches
// grow every step and all 8 builds grow the range. The steady step is
// held within 10% of the step the traced process timed unprofiled
// (76.31 ms and 86.62 ms): every traced build replayed as recurring,
// prune.bf16 was 186.51 ms.
func TestPlanCache(t *testing.T) {
	if testing.Short() {
		t.Skip("reads two traces")
	}
	for _, c := range []struct {
		file                       string
		measured                   float64
		op                         string
		distinct, long, grow, fill int
	}{
		{"host27/prune.bf16.json.gz", 76.31e-3, "aten::scaled_dot_product_attention", 6, 3, 1, 2},
		{"host27/prune.bf16.json.gz", 76.31e-3, "autograd::engine::evaluate_function: ScaledDotProductCudnnAttentionBackward0", 6, 3, 1, 2},
		{"host26/spec.bf16.json.gz", 86.62e-3, "aten::scaled_dot_product_attention", 11, 8, 8, 0},
	} {
		tl := fixtureGrouper(t, c.file).Timeline
		found := false
		for _, o := range analysis.OpHosts(tl) {
			if o.Name != c.op {
				continue
			}
			found = true
			if !o.Plans() || o.Distinct != c.distinct || o.Long != c.long || o.Grow != c.grow || o.Fill != c.fill || o.Seen != 0 {
				t.Errorf("%s: %s: plans %v, %d distinct shapes, %d builds (%d growing, %d filling, %d seen); want %d, %d (%d, %d, 0)",
					c.file, c.op, o.Plans(), o.Distinct, o.Long, o.Grow, o.Fill, o.Seen, c.distinct, c.long, c.grow, c.fill)
			}
		}
		if !found {
			t.Errorf("%s: no op host work of %s", c.file, c.op)
		}
		if step := analysis.ReplayedStep(tl); math.Abs(step/c.measured-1) > 0.10 {
			t.Errorf("%s: the steady step replays at %.2f ms, measured %.2f ms (tolerance 10%%)", c.file, 1e3*step, 1e3*c.measured)
		}
	}
}
