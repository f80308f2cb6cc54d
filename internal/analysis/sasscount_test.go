package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
)

// TestTropicalSteps holds which FMNMX and FADD rows are a distance or
// min-plus product's steps, on rows of the real source pages (each row's
// warp-level instructions executed as captured): the FMNMX of an FADD's
// sum (sol-check14's minplus<1>), the FMNMX of an FADD's difference's
// absolute value (sol-check25's chebMat<1>, the L∞ step), and not a
// largest-magnitude reduction's FMNMX of loaded values (sol-check18's
// rowL2Clip<0>).
func TestTropicalSteps(t *testing.T) {
	type row struct {
		addr, sass string
		inst       float64
	}
	for _, c := range []struct {
		name string
		rows []row
		want float64
	}{
		{"minplus<1> min of a sum", []row{
			{"0x7ff88f7a8830", "FADD R23, R23, R26", 2097152},
			{"0x7ff88f7a8840", "FMNMX R23, R23, R18, PT", 2097152},
			{"0x7ff88f7a8850", "FADD R28, R25, R28", 2097152},
			{"0x7ff88f7a8860", "FMNMX R23, R23, R28, PT", 2097152},
		}, 2 * 2097152},
		{"chebMat<1> max of an absolute difference", []row{
			{"0x7fd31b7a44d0", "LDS R15, [R12]", 2097152},
			{"0x7fd31b7a44e0", "LDS R16, [R14]", 2097152},
			{"0x7fd31b7a44f0", "LDS R18, [R12+0x44]", 2097152},
			{"0x7fd31b7a4500", "LDS R25, [R14+0x44]", 2097152},
			{"0x7fd31b7a4580", "FADD R16, -R15, R16", 2097152},
			{"0x7fd31b7a4590", "FMNMX R15, |R16|, R5, !PT", 2097152},
			{"0x7fd31b7a45b0", "FADD R18, -R18, R25", 2097152},
			{"0x7fd31b7a45d0", "FMNMX R25, R15, |R18|, !PT", 2097152},
			{"0x7fd31b7a4580", "FADD R16, -R15, R16", 2097152}, // listed again under another line
		}, 2 * 2097152},
		{"rowL2Clip<0> largest magnitude of loads", []row{
			{"0x7f1b437c2050", "LDG.E.128.CONSTANT R4, desc[UR6][R22.64+0x8000]", 32768},
			{"0x7f1b437c22c0", "FMNMX R4, |R5|, |R4|, !PT", 32768},
			{"0x7f1b437c22d0", "FMNMX R7, |R7|, |R6|, !PT", 32768},
			{"0x7f1b437c22f0", "FMNMX R7, R4, R7, !PT", 32768},
		}, 0},
	} {
		k := &profan.Kernel{}
		for _, r := range c.rows {
			k.Source = append(k.Source, profan.SourceRecord{Address: r.addr, SASS: r.sass,
				Counter: []profan.Metric{{Name: "inst_executed", Value: r.inst}}})
		}
		if got := analysis.TropicalSteps(k); got != c.want {
			t.Errorf("%s: TropicalSteps = %v, want %v", c.name, got, c.want)
		}
	}
}
