package rules

import (
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
)

// TestCollapseBasis: a collapsed optimizer range's basis says what the
// replay took off the host: the update's, the rest kept, where the trace
// holds PyTorch's frames; else the whole range's, said to be an upper
// bound.
func TestCollapseBasis(t *testing.T) {
	framed := collapseBasis(analysis.Region{Name: "Optimizer.step#Adam.step", Count: 4, Host: 2.4e-3, Update: 1.6e-3}, 2, 1.0/3)
	if !strings.Contains(framed, "update (0.40 ms of its 0.60 ms of host a step") || !strings.Contains(framed, "_init_group") || strings.Contains(framed, "upper bound") {
		t.Errorf("with the frames: %s", framed)
	}
	bare := collapseBasis(analysis.Region{Name: "Optimizer.step#Adam.step", Count: 4, Host: 2.4e-3}, 2, 1.0/3)
	if !strings.Contains(bare, "whole host (0.60 ms a step") || !strings.Contains(bare, "with_stack=False") || !strings.Contains(bare, "an upper bound") {
		t.Errorf("without the frames: %s", bare)
	}
}
