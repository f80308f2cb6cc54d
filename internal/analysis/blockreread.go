package analysis

import (
	"strconv"
	"strings"
)

// UniformBase offsets a uniform register's number in SASSRegs (UR5 is
// UniformBase+5), so that general and uniform registers fit one set.
const UniformBase = 1000

// SASSRegs are the general and uniform registers an operand names, both
// halves of a 64-bit pair, the uniform ones offset by UniformBase: what
// a walk over an instruction's registers reads, here and in the rules.
func SASSRegs(operand string) []int {
	return appendRegs(registers(operand), operand, "UR", UniformBase)
}

// AddressRegs are the registers (general and uniform, as SASSRegs
// numbers them) of a memory instruction's address operand, its last
// [...] ("[R5+UR4+0x10]": R5 and UR4; "desc[UR4][R2.64]": R2 and R3).
func AddressRegs(sass string) []int {
	j := strings.LastIndexByte(sass, ']')
	if j < 0 {
		return nil
	}
	i := strings.LastIndexByte(sass[:j], '[')
	if i < 0 {
		return nil
	}
	return SASSRegs(sass[i : j+1])
}

// ctaDims are the block-index dimensions the address of the memory
// instruction at index i depends on ("X", "Y", "Z"), by a backward walk
// over the registers that compute it to the S2R or S2UR that reads
// SR_CTAID; ok is false when the walk cannot tell (a chain through a
// load, or longer than the program before it), which callers read as
// "depends on every dimension".
func (p *sassProgram) ctaDims(i int) (dims map[string]bool, ok bool) {
	_, args := p.Fields(i)
	want := map[int]bool{}
	for _, r := range SASSRegs(addressOperand(args)) {
		if r < UniformBase || !descriptor(addressOperand(args), r-UniformBase) {
			want[r] = true
		}
	}
	dims = map[string]bool{}
	for j := i - 1; j >= 0 && j >= i-walkWindow && len(want) > 0; j-- {
		op, as := p.Fields(j)
		if len(as) == 0 || strings.Contains(as[0], "[") && !isLoad(op) {
			continue // no register written (a store, a reduction)
		}
		dst := SASSRegs(as[0])
		if len(dst) == 0 {
			continue
		}
		if strings.Contains(op, ".WIDE") || strings.Contains(op, ".64") {
			dst = append(dst, dst[0]+1)
		}
		// A predicated write (@P0 ...) may not happen: the register's
		// earlier write is still wanted.
		guarded := strings.HasPrefix(strings.TrimSpace(p.Recs[j].SASS), "@")
		hit := false
		for _, d := range dst {
			if want[d] {
				hit = true
				if !guarded {
					delete(want, d)
				}
			}
		}
		if !hit {
			continue
		}
		if isLoad(op) {
			return nil, false // an address loaded from memory
		}
		if strings.HasPrefix(op, "S2R") || strings.HasPrefix(op, "S2UR") {
			if len(as) > 1 && strings.HasPrefix(as[1], "SR_CTAID.") {
				dims[strings.TrimPrefix(as[1], "SR_CTAID.")] = true
			}
			continue
		}
		for k, a := range as[1:] {
			for _, r := range SASSRegs(a) {
				want[r] = true
				if k == len(as)-2 && strings.Contains(op, ".WIDE") && r < UniformBase {
					want[r+1] = true // the 64-bit addend's high half
				}
			}
		}
	}
	return dims, len(want) == 0
}

// descriptor reports whether uniform register n is the memory descriptor
// of an address operand (desc[UR4][R2.64]: the access's cache policy, not
// its address).
func descriptor(operand string, n int) bool {
	return strings.Contains(operand, "desc[UR"+strconv.Itoa(n)+"]")
}

// walkWindow and walkLoads bound the work of BlockRereads on a long
// program (a library GEMM's thousands of instructions): a walk stops that
// many instructions back (and cannot tell), and a program with more
// global accesses than walkLoads is not read.
const (
	walkWindow = 2048
	walkLoads  = 256
)

// BlockRereads is the number of blocks of a kernel's grid that read the
// same global data: the product of the extents of the grid dimensions
// that no global load's address depends on while a global store's does
// (fixtures/sol-check11's convC4<1>: sixteen blocks along z, one an
// output channel, each staging the same 4-channel input tile; its
// eight-channel twin, two). 1 when every dimension indexes the loads,
// when no store tells the dimension apart, or without the source page.
func BlockRereads(a *Kernel) float64 {
	g := a.Record.Grid
	if len(a.Record.Source) == 0 || !g.Known() || g.Size() <= 1 {
		return 1
	}
	p := programOf(a)
	loads, stores := map[string]bool{}, map[string]bool{}
	nl, ns := 0, 0
	for i := range p.Recs {
		op, _ := p.Fields(i)
		var into map[string]bool
		switch {
		case isGlobalLoad(op):
			into = loads
			nl++
		case strings.HasPrefix(op, "STG") || strings.HasPrefix(op, "ST.") || op == "ST":
			into = stores
			ns++
		default:
			continue
		}
		if nl+ns > walkLoads {
			return 1
		}
		dims, ok := p.ctaDims(i)
		if !ok {
			dims = map[string]bool{"X": true, "Y": true, "Z": true}
		}
		for d := range dims {
			into[d] = true
		}
	}
	if nl == 0 || ns == 0 {
		return 1
	}
	n := 1.0
	for i, d := range []string{"X", "Y", "Z"} {
		if g[i] > 1 && !loads[d] && stores[d] {
			n *= float64(g[i])
		}
	}
	return n
}
