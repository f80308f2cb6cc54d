package analysis

import (
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// SourceTensorFlops counts the tensor-core operations of the source page's
// MMA instructions (2·m·n·k a warp-level execution, the shape from the
// opcode: HMMA.1688 16×8×8, HMMA.16816 16×8×16, IMMA.16832 16×8×32), with
// the operand type of the most of them ("tf32", "bf16", "fp16", "int8"),
// for a details page that exports no tensor operation counts
// (fixtures/sol-check14's mm_fma: 8.4 M HMMA.1688.F32.TF32, 1.72e10 FLOP,
// as its raw page counts; without them its headroom read DRAM at 0.8 % of
// its peak). 0 and "" without the source page or an MMA of a shape it
// names. Hopper's warpgroup MMAs name their shape in full
// (HGMMA.64x64x16.F32: m 64, n 64, k 16) and run on the four warps of a
// warpgroup, each of which the page counts: 2·m·n·k/4 a warp-level
// execution (fixtures/sol-check16's mm_t64, Triton's fp16 tl.dot in 64x64x32
// tiles: 4.19 M HGMMA.64x64x16, 1.37e11 FLOP, as its raw page counts;
// without them its details page read DRAM at 11 % of its peak as the
// unit to reach, 98 % headroom).
func SourceTensorFlops(k *profan.Kernel) (flops float64, typ string) {
	var by map[string]float64
	var seen map[string]bool
	for _, s := range k.Source {
		// Most pages have no MMA: a substring test before any parse.
		if !strings.Contains(s.SASS, "MMA.") {
			continue
		}
		op := Opcode(s.SASS)
		group := strings.HasPrefix(op, "HGMMA.") || strings.HasPrefix(op, "IGMMA.") || strings.HasPrefix(op, "QGMMA.")
		if !(strings.HasPrefix(op, "HMMA.") || strings.HasPrefix(op, "IMMA.") || group) {
			continue
		}
		if seen == nil {
			by, seen = map[string]float64{}, map[string]bool{}
		}
		if s.Address != "" {
			if seen[s.Address] {
				continue
			}
			seen[s.Address] = true
		}
		n := 0.0
		for _, c := range s.Counter {
			if c.Name == "inst_executed" && c.Value > 0 {
				n = c.Value
			}
		}
		parts := strings.Split(op, ".")
		var m, nn, kk int
		per := 1.0 // warps that share one MMA's work
		switch {
		case group:
			var ok bool
			if m, nn, kk, ok = groupShape(parts[1]); !ok {
				continue
			}
			per = 4
		case parts[1] == "1688":
			m, nn, kk = 16, 8, 8
		case parts[1] == "16816":
			m, nn, kk = 16, 8, 16
		case parts[1] == "16832":
			m, nn, kk = 16, 8, 32
		default:
			continue
		}
		t := "fp16"
		switch {
		case strings.HasPrefix(op, "IMMA.") || strings.HasPrefix(op, "IGMMA."):
			t = "int8"
		case strings.HasPrefix(op, "QGMMA."):
			t = "fp8"
		case strings.Contains(op, ".TF32"):
			t = "tf32"
		case strings.Contains(op, ".BF16"):
			t = "bf16"
		}
		by[t] += 2 * float64(m*nn*kk) * n / per
	}
	best := 0.0
	for t, f := range by {
		flops += f
		if f > best || f == best && t < typ {
			best, typ = f, t
		}
	}
	return flops, typ
}

// groupShape reads a warpgroup MMA's m×n×k ("64x64x16"); ok is false
// where the field is no shape.
func groupShape(f string) (m, n, k int, ok bool) {
	d := strings.Split(f, "x")
	if len(d) != 3 {
		return 0, 0, 0, false
	}
	var v [3]int
	for i, x := range d {
		n, err := strconv.Atoi(x)
		if err != nil || n <= 0 {
			return 0, 0, 0, false
		}
		v[i] = n
	}
	return v[0], v[1], v[2], true
}
