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

// TestLoopItems: a loop is a per-item loop over a batch where it takes an
// item (aten::select) at least minPerParameter times a step and runs each
// other op once a step or about once an item, no model layer inside.
func TestLoopItems(t *testing.T) {
	for _, c := range []struct {
		name string
		reg  analysis.Region
		want int
	}{
		// host21's aug_loop: 64 images a step, a flip for about half.
		{"augment", analysis.Region{Count: 4, Launches: 2954, Ops: map[string]int{"aten::select": 256, "aten::slice": 512, "aten::to": 256, "aten::div_": 256, "aten::flip": 134, "aten::mul": 512, "aten::clamp_": 512, "aten::mean": 256, "aten::sub": 512, "aten::add": 256, "aten::div": 256, "aten::stack": 4}}, 64},
		// host18's decode: d[..., 0] on the last dimension, once a step.
		{"last dimension", analysis.Region{Count: 4, Launches: 116, Ops: map[string]int{"aten::select": 40, "aten::add": 24, "aten::clamp": 8, "aten::exp": 8, "aten::mul": 56, "aten::stack": 4, "aten::sub": 16}}, 0},
		{"a model per item", analysis.Region{Count: 1, Launches: 64, Ops: map[string]int{"aten::select": 16, "aten::conv2d": 16, "aten::relu": 16}}, 0},
		{"few items", analysis.Region{Count: 1, Launches: 8, Ops: map[string]int{"aten::select": 4, "aten::mul": 4}}, 0},
		{"no launches", analysis.Region{Count: 1, Launches: 3, Ops: map[string]int{"aten::select": 20, "aten::mul": 20}}, 0},
		{"no steps", analysis.Region{Ops: map[string]int{"aten::select": 20}}, 0},
	} {
		if got := loopItems(c.reg); got != c.want {
			t.Errorf("%s: %d items, want %d", c.name, got, c.want)
		}
	}
}
