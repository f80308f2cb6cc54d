package analysis

import (
	"slices"
	"strings"
)

// Exchange is a warp's exchange of values through shared memory: each
// lane stores its value to the warp's words and loads a word another lane
// of the warp stored (a partner at lane + o), with no barrier between,
// as the warp-synchronous tree through a volatile __shared__ array does
// (fixtures/sol-check19's segStats<0>: five steps of four statistics,
// LDS [R2+0x40] ... [R2+0x4] after STS [R2], no BAR). __shfl_xor_sync
// moves the same values register to register: one SHFL a load, no
// store. In warp instructions executed: Loads, the shared loads of a
// word a store of the warp wrote at another offset from the same base
// register; Stores, the shared stores through the exchanges' base
// registers; Memory, every memory instruction through L1 and the
// shuffles the kernel already issues (the LSU pipe's requests).
type Exchange struct {
	Loads, Stores, Memory float64
	Lines                 []int // the loads' lines
}

// exchangeWindow is the span of a warp's words (32 four-byte lanes): a
// load at another offset within it from the store's base register reads
// a word another lane of the warp stored.
const exchangeWindow = 128

// WarpExchanges reads a kernel's exchanges through shared memory from
// its source page, in program order: a shared store through a base
// register, then a shared load through the same register, unchanged, of
// bytes none of the lane's stores through it wrote, less than a warp's
// words from one of them, with no barrier or fence between. A lane's own
// words read back are not an exchange, nor is a neighbour's read through
// a register of its own (sol-check17's state8<8>: its eight words
// through R3, the neighbour lane's through R0). Zero without the source
// page.
func WarpExchanges(a *Kernel) (x Exchange) {
	if len(a.Record.Source) == 0 {
		return x
	}
	// window is what a base register's shared stores wrote, from its
	// last write on: their offsets and indices.
	type window struct {
		offsets   []int64 // where each store's bytes begin
		widths    []int64
		stores    []int
		exchanged bool
	}
	p := programOf(a)
	open := map[int]*window{} // base register → its window
	var windows []*window
	var loads []int
	for i, r := range p.Recs {
		op, args := p.Fields(i)
		base, _, _ := strings.Cut(op, ".")
		switch base {
		case "SHFL", "LDG", "STG", "LD", "ST", "LDS", "STS", "LDL", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "LDGSTS":
			x.Memory += sourceInst(r)
		}
		switch base {
		case "BAR", "MEMBAR", "CALL", "RET", "EXIT":
			clear(open) // a barrier orders the block's stores: no warp's own exchange
			continue
		case "STS":
			if reg, off, ok := sharedAddress(args); ok {
				w := open[reg]
				if w == nil {
					w = &window{}
					open[reg] = w
					windows = append(windows, w)
				}
				w.offsets = append(w.offsets, off)
				w.widths = append(w.widths, accessBytes(op))
				w.stores = append(w.stores, i)
			}
			continue
		case "LDS":
			if reg, off, ok := sharedAddress(args); ok && open[reg] != nil {
				// Another lane's word: bytes none of the lane's stores
				// wrote, within a warp's words of one of them.
				w := open[reg]
				own, near := false, false
				for k, s := range w.offsets {
					d := off - s
					own = own || d >= 0 && d < w.widths[k]
					near = near || d > -exchangeWindow && d < exchangeWindow
				}
				if near && !own {
					loads = append(loads, i)
					w.exchanged = true
				}
			}
		}
		if len(args) > 0 && !strings.Contains(args[0], "[") {
			for _, w := range registers(args[0]) {
				delete(open, w) // the base register written: another address
			}
		}
	}
	for _, i := range loads {
		x.Loads += sourceInst(p.Recs[i])
		if l := p.Recs[i].Line; l > 0 && !slices.Contains(x.Lines, l) {
			x.Lines = append(x.Lines, l)
		}
	}
	for _, w := range windows {
		if w.exchanged {
			for _, i := range w.stores {
				x.Stores += sourceInst(p.Recs[i])
			}
		}
	}
	return x
}

// sharedAddress is a shared access's base register and offset ([R2+0x40]:
// R2, 64); ok is false for an address of a uniform register alone or an
// immediate (a block's word, not a lane's).
func sharedAddress(args []string) (int, int64, bool) {
	a := addressOperand(args)
	r := registers(a)
	if len(r) == 0 {
		return 0, 0, false
	}
	return r[0], offset(a), true
}

// accessBytes is a memory instruction's bytes a thread (STS.128: 16).
func accessBytes(op string) int64 {
	switch {
	case strings.Contains(op, ".128"):
		return 16
	case strings.Contains(op, ".64"):
		return 8
	case strings.Contains(op, ".U8"), strings.Contains(op, ".S8"):
		return 1
	case strings.Contains(op, ".U16"), strings.Contains(op, ".S16"):
		return 2
	}
	return 4
}
