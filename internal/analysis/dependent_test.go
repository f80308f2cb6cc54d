package analysis

import (
	"fmt"
	"testing"

	"github.com/profan-dev/profan"
)

// sassKernel is a kernel whose source page holds the instructions given,
// at consecutive addresses from 0x100, each executed n[i] times with s[i]
// stall samples.
func sassKernel(sass []string, n, s []float64) *Kernel {
	k := &profan.Kernel{}
	for i, x := range sass {
		r := profan.SourceRecord{Line: 1, Address: addrOf(i), SASS: x}
		if n != nil {
			r.Counter = []profan.Metric{{Name: "inst_executed", Value: n[i]}, {Name: "stall_samples", Value: s[i]}}
		}
		k.Source = append(k.Source, r)
	}
	return &Kernel{Record: k}
}

func addrOf(i int) string { return fmt.Sprintf("0x%x", 0x100+16*i) }

// TestChased holds the loop-carried walk on the shapes of
// fixtures/sol-check11's chase: p = next[p] through the loop's back edge
// is chased; a streaming loop's address, an index plus a stride, is not.
func TestChased(t *testing.T) {
	chase := sassKernel([]string{
		"IMAD.MOV.U32 R3, RZ, RZ, R7",         // 0x100: p = i
		"IMAD.WIDE.U32 R2, R3, 0x4, R4",       // 0x110: loop head, &next[p]
		"LDG.E.CONSTANT R3, desc[UR4][R2.64]", // 0x120: p = next[p]
		"IADD3 R0, R0, 0x1, RZ",               // 0x130
		"ISETP.NE.AND P0, PT, R0, 0x10, PT",   // 0x140
		"@P0 BRA 0x110",                       // 0x150
		"STG.E desc[UR4][R8.64], R6",          // 0x160
	}, nil, nil)
	if !Chased(chase, "0x120") {
		t.Error("p = next[p] in a loop: not chased")
	}
	stream := sassKernel([]string{
		"IMAD.WIDE R2, R7, 0x4, R4",           // 0x100
		"LDG.E.CONSTANT R9, desc[UR4][R2.64]", // 0x110: loop head
		"FADD R6, R6, R9",                     // 0x120
		"IADD3 R2, P1, R2, 0x400, RZ",         // 0x130
		"IADD3.X R3, RZ, R3, RZ, P1, !PT",     // 0x140
		"ISETP.NE.AND P0, PT, R2, R10, PT",    // 0x150
		"@P0 BRA 0x110",                       // 0x160
	}, nil, nil)
	if Chased(stream, "0x110") {
		t.Error("a grid-stride load read as chased")
	}
	if Chased(chase, "0x160") {
		t.Error("a store after the loop read as chased")
	}
}

// TestChasedSearch holds a search's walk on the shape of
// fixtures/sol-check18's treeWalk<1>: the next node chosen by comparing
// the loaded threshold with the query (FSETP, then SEL on its predicate)
// is chased; SelfChased, which reads a link the load returns, is not.
func TestChasedSearch(t *testing.T) {
	walk := sassKernel([]string{
		"IMAD.MOV.U32 R9, RZ, RZ, RZ",                // 0x100: node = 0
		"IMAD.WIDE.U32 R2, R9, 0x4, R4",              // 0x110: loop head, &thr[node]
		"LDG.E.CONSTANT R3, desc[UR4][R2.64]",        // 0x120
		"VIADD R6, R6, 0x1",                          // 0x130
		"SHF.L.U32 R9, R9, 0x1, RZ",                  // 0x140
		"FSETP.GE.AND P0, PT, R0, R3, PT",            // 0x150: x >= thr[node]
		"SEL R8, RZ, 0x1, !P0",                       // 0x160
		"ISETP.NE.AND P0, PT, R6, 0x14, PT",          // 0x170
		"LOP3.LUT R8, R9, 0xfffffffe, R8, 0xe2, !PT", // 0x180
		"VIADD R9, R8, 0x1",                          // 0x190
		"@P0 BRA 0x110",                              // 0x1a0
		"STG.E desc[UR4][R4.64], R3",                 // 0x1b0
	}, nil, nil)
	if !Chased(walk, "0x120") {
		t.Error("a search's next index chosen by a compare of the loaded value: not chased")
	}
	if SelfChased(walk, "0x120") {
		t.Error("a search read as a link walk (SelfChased)")
	}
}

// TestFenceHeld holds the fence share: a fence after each store whose
// ERRBAR holds the samples counts; one fence after many stores does not.
func TestFenceHeld(t *testing.T) {
	each := sassKernel([]string{"STG.E desc[UR4][R2.64], R5", "MEMBAR.SC.GPU", "ERRBAR", "CCTL.IVALL", "STG.E desc[UR4][R2.64+0x4], R5", "MEMBAR.SC.GPU", "ERRBAR", "EXIT"},
		[]float64{10, 10, 10, 10, 10, 10, 10, 10}, []float64{5, 1, 40, 4, 5, 1, 40, 4})
	if got := FenceHeld(each); got < 0.8 || got > 0.9 {
		t.Errorf("a fence per store: %.2f of the samples, want 0.86", got)
	}
	one := sassKernel([]string{"STG.E desc[UR4][R2.64], R5", "STG.E desc[UR4][R2.64+0x4], R5", "STG.E desc[UR4][R2.64+0x8], R5", "MEMBAR.SC.GPU", "ERRBAR", "EXIT"},
		[]float64{10, 10, 10, 10, 10, 10}, []float64{5, 5, 5, 1, 40, 4})
	if got := FenceHeld(one); got != 0 {
		t.Errorf("one fence after three stores: %.2f, want 0", got)
	}
}
