package rules

import (
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// TestBlockDrift holds blockDrift to the sectors a block size's drift
// gives: 24 one-byte stores a warp drift to 1.5 sectors a request, 24
// four-byte loads (96 bytes) never drift, and full warps never do.
func TestBlockDrift(t *testing.T) {
	for _, tc := range []struct {
		block int
		width float64
		spr   float64
		ideal float64
		want  bool
	}{
		{24, 1, 1.5, 1, true},  // quantB<24>'s stores
		{24, 1, 2.0, 1, false}, // more than the drift: an offset besides
		{24, 4, 3.5, 3, false}, // 96 bytes a warp never drift: an offset
		{256, 1, 1.5, 1, false},
		{48, 1, 1.25, 1, true}, // a full warp and a half one, drifting
	} {
		rec := profan.NewKernel()
		rec.Block = profan.Dim3{tc.block, 1, 1}
		k := &analysis.Kernel{Record: rec}
		x := &analysis.Access{SectorsPerRequest: tc.spr, IdealSectorsPerRequest: tc.ideal, Pattern: gpumodel.AccessPattern{Kind: gpumodel.Misaligned, AccessBytes: tc.width}}
		if got := blockDrift(k, x, analysis.Instruction{}, false); got != tc.want {
			t.Errorf("block %d, %v-byte accesses at %.1f sectors a request: got %v, want %v", tc.block, tc.width, tc.spr, got, tc.want)
		}
	}
}
