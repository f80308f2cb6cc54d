package rules

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
)

// TestLoopTensors: a loop is a per-tensor update where it dispatches
// elementwise ops alone, each at least minPerParameter times a step; its
// tensors are the fewest dispatches a step of one op.
func TestLoopTensors(t *testing.T) {
	for _, c := range []struct {
		name string
		reg  analysis.Region
		want int
	}{
		{"ema", analysis.Region{Count: 4, Launches: 1224, Ops: map[string]int{"aten::mul": 816, "aten::add": 408, "aten::copy_": 816, "aten::detach": 816}}, 102},
		{"matmul inside", analysis.Region{Count: 4, Launches: 1224, Ops: map[string]int{"aten::mul": 816, "aten::linear": 408}}, 0},
		{"norm inside", analysis.Region{Count: 1, Launches: 40, Ops: map[string]int{"aten::linalg_vector_norm": 20, "aten::mul_": 20}}, 0},
		{"few tensors", analysis.Region{Count: 2, Launches: 24, Ops: map[string]int{"aten::add": 8, "aten::copy_": 8}}, 0},
		{"no launches", analysis.Region{Count: 1, Launches: 3, Ops: map[string]int{"aten::add": 20}}, 0},
		{"no steps", analysis.Region{Ops: map[string]int{"aten::add": 20}}, 0},
	} {
		if got := loopTensors(c.reg); got != c.want {
			t.Errorf("%s: %d tensors, want %d", c.name, got, c.want)
		}
	}
}
