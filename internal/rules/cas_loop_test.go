package rules

import (
	"testing"

	"github.com/profan-dev/profan"
)

// TestCasIntAdd holds which integer adds casIntAdd reads as the value a
// compare-and-swap loop swaps in, on rows of the real source pages (each
// row's warp-level instructions executed as captured): an IADD3 and its
// carry's LEA.HI.X into a 64-bit CAS (sol-check24's tallyI64<0>), the
// compiler's IMAD.IADD into a 32-bit CAS (sol-check25's byteCount<0>),
// and none where no add writes the CAS's new value (byteCount<0>'s loop
// without its add).
func TestCasIntAdd(t *testing.T) {
	type row struct {
		addr, sass string
		inst       float64
	}
	byteCount := []row{
		{"0x7fd31b7b62f0", "LDG.E R8, desc[UR4][R4.64]", 524288},
		{"0x7fd31b7b6340", "IMAD.IADD R9, R7, 0x1, R8", 1370256},
		{"0x7fd31b7b6350", "YIELD", 1370256},
		{"0x7fd31b7b6360", "ATOMG.E.CAS.STRONG.GPU PT, R9, [R4], R8, R9", 1370256},
		{"0x7fd31b7b6370", "ISETP.NE.AND P0, PT, R9, R8, PT", 1370256},
		{"0x7fd31b7b6380", "IMAD.MOV.U32 R8, RZ, RZ, R9", 1370256},
		{"0x7fd31b7b6390", "@P0   BRA 0x7fd31b7b6340", 1370256},
	}
	for _, c := range []struct {
		name    string
		rows    []row
		casInst float64
		want    string
	}{
		{"tallyI64<0>", []row{
			{"0x7ff0ef7b0d50", "IADD3 R14, P0, R11, R8, RZ", 31049227},
			{"0x7ff0ef7b0d80", "LEA.HI.X.SX32 R15, R11, R9, 0x1, P0", 31049227},
			{"0x7ff0ef7b0da0", "ATOMG.E.CAS.64.STRONG.GPU PT, R2, [R6], R12, R14", 31049227},
			{"0x7ff0ef7b0db0", "ISETP.NE.U32.AND P0, PT, R8, R2, PT", 31049227},
		}, 31049227, "64-bit integer"},
		{"byteCount<0>", byteCount, 1370256, "32-bit integer"},
		{"byteCount<0> without its add", append(byteCount[:1:1], byteCount[2:]...), 1370256, ""},
	} {
		var code []profan.SourceRecord
		for _, r := range c.rows {
			code = append(code, profan.SourceRecord{Address: r.addr, SASS: r.sass,
				Counter: []profan.Metric{{Name: "inst_executed", Value: r.inst}}})
		}
		if got := casIntAdd(code, c.casInst); got != c.want {
			t.Errorf("%s: casIntAdd = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCasIncWrap holds which values casIncWrap reads as a wrapping
// increment swapped in by a 32-bit compare-and-swap loop, on rows of the
// real source page (sol-check27's ringTicket<0>, each row's warp-level
// instructions executed as captured): the compared word plus one, or
// zero once an unsigned compare finds it at the bound, SEL'd into the
// CAS's new value. Not: the loop without its SEL (no wrap), the loop
// with the bound compared signed (not atomicInc's unsigned compare),
// sol-check25's byteCount<0> add loop (an add, casIntAdd's), and the
// increment executed less often than the CAS (outside its loop).
func TestCasIncWrap(t *testing.T) {
	type row struct {
		addr, sass string
		inst       float64
	}
	ring := []row{
		{"0x7f650b7c1640", "LDG.E R8, desc[UR6][R4.64]", 524288},
		{"0x7f650b7c1650", "UIADD3 UR4, UR4, -0x1, URZ", 524288},
		{"0x7f650b7c1660", "VIADD R9, R8, 0x1", 13798878},
		{"0x7f650b7c1670", "ISETP.GE.U32.AND P0, PT, R8, UR4, PT", 13798878},
		{"0x7f650b7c1680", "YIELD", 13798878},
		{"0x7f650b7c1690", "SEL R9, R9, RZ, !P0", 13798878},
		{"0x7f650b7c16a0", "ATOMG.E.CAS.STRONG.GPU PT, R9, [R4], R8, R9", 13798878},
		{"0x7f650b7c16b0", "ISETP.NE.AND P0, PT, R9, R8, PT", 13798878},
		{"0x7f650b7c16c0", "IMAD.MOV.U32 R8, RZ, RZ, R9", 13798878},
		{"0x7f650b7c16d0", "@P0   BRA 0x7f650b7c1660", 13798878},
	}
	signed := append([]row{}, ring...)
	signed[3].sass = "ISETP.GE.AND P0, PT, R8, UR4, PT"
	loose := append([]row{}, ring...)
	loose[2].inst = 524288
	for _, c := range []struct {
		name    string
		rows    []row
		casInst float64
		want    bool
	}{
		{"ringTicket<0>", ring, 13798878, true},
		{"ringTicket<0> without its SEL", append(ring[:5:5], ring[6:]...), 13798878, false},
		{"ringTicket<0> compared signed", signed, 13798878, false},
		{"ringTicket<0> with its add outside the loop", loose, 13798878, false},
		{"byteCount<0>", []row{
			{"0x7fd31b7b62f0", "LDG.E R8, desc[UR4][R4.64]", 524288},
			{"0x7fd31b7b6340", "IMAD.IADD R9, R7, 0x1, R8", 1370256},
			{"0x7fd31b7b6360", "ATOMG.E.CAS.STRONG.GPU PT, R9, [R4], R8, R9", 1370256},
			{"0x7fd31b7b6370", "ISETP.NE.AND P0, PT, R9, R8, PT", 1370256},
			{"0x7fd31b7b6390", "@P0   BRA 0x7fd31b7b6340", 1370256},
		}, 1370256, false},
	} {
		var code []profan.SourceRecord
		for _, r := range c.rows {
			code = append(code, profan.SourceRecord{Address: r.addr, SASS: r.sass,
				Counter: []profan.Metric{{Name: "inst_executed", Value: r.inst}}})
		}
		if got := casIncWrap(code, c.casInst); got != c.want {
			t.Errorf("%s: casIncWrap = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCasIntMax holds which values casIntMax reads as an integer maximum
// swapped in by a compare-and-swap loop, on rows of the real source page
// (sol-check29's lastSeen<0>, each row's warp-level instructions executed
// as captured): the 64-bit pair SEL'd between the word read and the
// value by an unsigned compare of the two, "unsigned long long". Not: the
// loop without its high half's SEL, the SEL choosing by a test for
// equality (no order), and the compare outside the loop.
func TestCasIntMax(t *testing.T) {
	type row struct {
		addr, sass string
		inst       float64
	}
	last := []row{
		{"0x7f620f7b2a20", "LDG.E.64 R10, desc[UR4][R8.64]", 524288},
		{"0x7f620f7b2a40", "ISETP.GT.U32.AND P0, PT, R10, R13, PT", 685269},
		{"0x7f620f7b2a50", "IMAD.MOV.U32 R4, RZ, RZ, R10", 685269},
		{"0x7f620f7b2a60", "YIELD", 685269},
		{"0x7f620f7b2a70", "ISETP.GT.U32.AND.EX P0, PT, R11, R15, PT, P0", 685269},
		{"0x7f620f7b2a80", "IMAD.MOV.U32 R5, RZ, RZ, R11", 685269},
		{"0x7f620f7b2a90", "SEL R6, R10, R13, P0", 685269},
		{"0x7f620f7b2aa0", "SEL R7, R11, R15, P0", 685269},
		{"0x7f620f7b2ab0", "ATOMG.E.CAS.64.STRONG.GPU PT, R4, [R8], R4, R6", 685269},
		{"0x7f620f7b2ac0", "ISETP.NE.U32.AND P0, PT, R4, R10, PT", 685269},
		{"0x7f620f7b2ae0", "ISETP.NE.AND.EX P0, PT, R5, R11, PT, P0", 685269},
		{"0x7f620f7b2b00", "@P0   BRA 0x7f620f7b2a40", 685269},
	}
	equal := append([]row{}, last...)
	equal[1].sass = "ISETP.NE.U32.AND P0, PT, R10, R13, PT"
	equal[4].sass = "ISETP.NE.AND.EX P0, PT, R11, R15, PT, P0"
	loose := append([]row{}, last...)
	loose[1].inst, loose[4].inst = 524288, 524288
	for _, c := range []struct {
		name string
		rows []row
		want string
	}{
		{"lastSeen<0>", last, "unsigned long long"},
		{"lastSeen<0> without its high SEL", append(last[:7:7], last[8:]...), ""},
		{"lastSeen<0> compared for equality", equal, ""},
		{"lastSeen<0> with its compare outside the loop", loose, ""},
	} {
		var code []profan.SourceRecord
		for _, r := range c.rows {
			code = append(code, profan.SourceRecord{Address: r.addr, SASS: r.sass,
				Counter: []profan.Metric{{Name: "inst_executed", Value: r.inst}}})
		}
		if got := casIntMax(code, 685269); got != c.want {
			t.Errorf("%s: casIntMax = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestCasGuardedMinMax holds which loops casGuardedMinMax reads as an
// integer minimum or maximum swapped in under a guard, on rows of the
// real source page (sol-check30's crossMin<0>, each row's warp-level
// instructions executed as captured): the value swapped in while a signed
// compare of it with the word read stays below, "int". Not: the compare
// by equality, a compare that leaves no loop (no branch or exit reads
// its predicate), and the compare of other registers.
func TestCasGuardedMinMax(t *testing.T) {
	type row struct {
		addr, sass string
		inst       float64
	}
	cross := []row{
		{"0x7fa9fb7b2400", "LDG.E R6, desc[UR4][R2.64]", 524288},
		{"0x7fa9fb7b2420", "ISETP.GE.AND P0, PT, R7, R6, PT", 524288},
		{"0x7fa9fb7b2430", "YIELD", 524288},
		{"0x7fa9fb7b2440", "@P0   EXIT", 524288},
		{"0x7fa9fb7b2450", "ATOMG.E.CAS.STRONG.GPU PT, R5, [R2], R6, R7", 524277},
		{"0x7fa9fb7b2460", "ISETP.NE.AND P0, PT, R5, R6, PT", 524277},
		{"0x7fa9fb7b2470", "IMAD.MOV.U32 R6, RZ, RZ, R5", 524277},
		{"0x7fa9fb7b2480", "@P0   BRA 0x7fa9fb7b2420", 524277},
	}
	equal := append([]row{}, cross...)
	equal[1].sass = "ISETP.NE.AND P0, PT, R7, R6, PT"
	unguarded := append([]row{}, cross...)
	unguarded[3].sass = "EXIT"
	other := append([]row{}, cross...)
	other[1].sass = "ISETP.GE.AND P0, PT, R7, R9, PT"
	for _, c := range []struct {
		name string
		rows []row
		want string
	}{
		{"crossMin<0>", cross, "int"},
		{"crossMin<0> compared for equality", equal, ""},
		{"crossMin<0> with no exit on its compare", unguarded, ""},
		{"crossMin<0> comparing another register", other, ""},
	} {
		var code []profan.SourceRecord
		for _, r := range c.rows {
			code = append(code, profan.SourceRecord{Address: r.addr, SASS: r.sass,
				Counter: []profan.Metric{{Name: "inst_executed", Value: r.inst}}})
		}
		if got := casGuardedMinMax(code, 524277); got != c.want {
			t.Errorf("%s: casGuardedMinMax = %q, want %q", c.name, got, c.want)
		}
	}
}
