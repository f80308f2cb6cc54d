package analysis

import (
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
// names.
func SourceTensorFlops(k *profan.Kernel) (flops float64, typ string) {
	var by map[string]float64
	var seen map[string]bool
	for _, s := range k.Source {
		// Most pages have no MMA: a substring test before any parse.
		if !strings.Contains(s.SASS, "MMA.") {
			continue
		}
		op := Opcode(s.SASS)
		if !(strings.HasPrefix(op, "HMMA.") || strings.HasPrefix(op, "IMMA.")) {
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
		switch parts[1] {
		case "1688":
			m, nn, kk = 16, 8, 8
		case "16816":
			m, nn, kk = 16, 8, 16
		case "16832":
			m, nn, kk = 16, 8, 32
		default:
			continue
		}
		t := "fp16"
		switch {
		case strings.HasPrefix(op, "IMMA."):
			t = "int8"
		case strings.Contains(op, ".TF32"):
			t = "tf32"
		case strings.Contains(op, ".BF16"):
			t = "bf16"
		}
		by[t] += 2 * float64(m*nn*kk) * n
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
