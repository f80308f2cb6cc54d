package gpumodel

import (
	"fmt"
	"testing"
)

func TestBankConflict(t *testing.T) {
	tests := []struct {
		name                            string
		banks, width, elemBytes, stride int
		want                            int
	}{
		// Harris: linear addressing with 32 banks of 4 B.
		{"stride 1", 32, 4, 4, 1, 1},
		{"stride 2: 2-way", 32, 4, 4, 2, 2},
		{"stride 3: odd strides are free", 32, 4, 4, 3, 1},
		{"stride 8: 8-way", 32, 4, 4, 8, 8},
		{"stride 16", 32, 4, 4, 16, 16},
		{"stride 32: one bank", 32, 4, 4, 32, 32},
		{"stride 33", 32, 4, 4, 33, 1},
		{"stride 0: broadcast", 32, 4, 4, 0, 1},
		{"negative stride", 32, 4, 4, -2, 2},
		// CC 1.x: 16 banks per half-warp.
		{"cc1 stride 1", 16, 4, 4, 1, 1},
		{"cc1 stride 2", 16, 4, 4, 2, 2},
		{"cc1 stride 8", 16, 4, 4, 8, 8},
		{"cc1 stride 16 (16x16 tile column)", 16, 4, 4, 16, 16},
		{"cc1 stride 17 (padded)", 16, 4, 4, 17, 1},
		// Fermi: "no bank-conflicts when accessing 8-byte words".
		{"doubles stride 1", 32, 4, 8, 1, 1},
		{"doubles stride 2", 32, 4, 8, 2, 2},
		{"float4 stride 1", 32, 4, 16, 1, 1},
		// Kepler 8-byte mode: doubles and float pairs fit one bank each.
		{"8-byte mode doubles stride 1", 32, 8, 8, 1, 1},
		{"8-byte mode floats stride 2", 32, 8, 4, 2, 1},
		{"8-byte mode floats stride 1 (shared words)", 32, 8, 4, 1, 1},
		{"8-byte mode doubles stride 32", 32, 8, 8, 32, 32},
		// Sub-word elements share words.
		{"bytes stride 1", 32, 4, 1, 1, 1},
		{"bytes stride 4", 32, 4, 1, 4, 1},
		{"bytes stride 128", 32, 4, 1, 128, 32},
		{"invalid banks", 0, 4, 4, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bankConflict(tt.banks, tt.width, tt.elemBytes, tt.stride); got != tt.want {
				t.Errorf("%s: bankConflict(%d, %d, %d, %d): got %d, want %d",
					tt.name, tt.banks, tt.width, tt.elemBytes, tt.stride, got, tt.want)
			}
		})
	}
}

func TestTileColumnConflict(t *testing.T) {
	tests := []struct{ width, elemBytes, want int }{
		{32, 4, 32}, {33, 4, 1}, {16, 4, 16}, {17, 4, 1}, {64, 4, 32}, {34, 4, 2},
		{32, 8, 16}, {33, 8, 1}, {32, 16, 8}, {33, 16, 1}, {32, 1, 8}, {32, 2, 16},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.width), func(t *testing.T) {
			if got := TileColumnConflict(tt.width, tt.elemBytes); got != tt.want {
				t.Errorf("TileColumnConflict(%d, %d): got %d, want %d", tt.width, tt.elemBytes, got, tt.want)
			}
		})
	}
}

func TestPaddingFor(t *testing.T) {
	tests := []struct{ width, elemBytes, want int }{
		{32, 4, 1}, {33, 4, 0}, {64, 4, 1}, {16, 4, 1}, {30, 4, 1}, {31, 4, 0},
		{32, 8, 1}, {32, 16, 1}, {32, 1, 1}, {-1, 4, -1}, {32, 0, -1},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.width), func(t *testing.T) {
			got := PaddingFor(tt.width, tt.elemBytes)
			if got != tt.want {
				t.Errorf("PaddingFor(%d, %d): got %d, want %d", tt.width, tt.elemBytes, got, tt.want)
			}
			if got >= 0 {
				if c := TileColumnConflict(tt.width+got, tt.elemBytes); c != 1 {
					t.Errorf("PaddingFor(%d, %d) = %d leaves a %d-way conflict", tt.width, tt.elemBytes, got, c)
				}
			}
		})
	}
}
