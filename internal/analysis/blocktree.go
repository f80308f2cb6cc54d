package analysis

import (
	"fmt"
	"strconv"
	"strings"
)

// BarrierTree is a block's reduction through shared memory with a
// barrier a level (if (t < o) red[t] = f(red[t], red[t + o]);
// __syncthreads(); o halving): after each BAR.SYNC its threads load their
// own word and the word o lanes on (LDS [Rb], LDS [Rb+4·o]) and store
// the result to their own (STS [Rb]), every warp of the block issuing
// each level's loads and store whatever o, its threads past o
// predicated off, and each of those shared instructions a wavefront of
// L1's data pipe and an LSU slot (fixtures/sol-check19's rowSoftmax<0>:
// two trees of eight levels a row of 256, 101 M of its 113 M shared and
// global warp instructions, L1's data pipe at 83 % and the LSU pipe at
// 76 %). A warp's own words take the levels whose partner lies in the
// warp (o under 32 words), which __shfl_xor_sync does register to
// register, a shuffle a level; the levels above meet the block's warps
// once: a warp's partial stored, the partials loaded, two barriers
// (its twin: 42 M, shuffles included, L1 at 69 %, 0.52 faster).
type BarrierTree struct {
	// Levels and WarpLevels are the levels found, and those of them
	// whose partner lies within a warp's words.
	Levels, WarpLevels int
	// Loads, Stores and Bars are the levels' warp-level shared loads,
	// stores and barriers executed.
	Loads, Stores, Bars float64
	// Kept is what a shuffle tree keeps of them, in warp-level
	// instructions: a shuffle a level within a warp, a partial's store
	// and load a tree (KeptBars: two barriers a tree).
	Kept, KeptBars float64
	// Memory is every warp-level instruction of the LSU pipe the kernel
	// executes (shared, global and local accesses, shuffles, atomics),
	// and All every one.
	Memory, All float64
	Lines       []int // the levels' lines
}

// MemoryLeft is the share of the kernel's LSU instructions a shuffle
// tree leaves: (Memory − Loads − Stores + Kept) / Memory.
func (t BarrierTree) MemoryLeft() float64 {
	if !(t.Memory > 0) {
		return 1
	}
	return clampShare((t.Memory - t.Loads - t.Stores + t.Kept) / t.Memory)
}

// IssueLeft is the share of the kernel's warp instructions a shuffle tree
// leaves, its barriers too.
func (t BarrierTree) IssueLeft() float64 {
	if !(t.All > 0) {
		return 1
	}
	return clampShare((t.All - t.Loads - t.Stores - t.Bars + t.Kept + t.KeptBars) / t.All)
}

func clampShare(x float64) float64 { return max(0, min(1, x)) }

// minTreeLevels is the fewest levels read as a tree: a block of 16
// threads' reduction or more.
const minTreeLevels = 4

// BarrierTrees reads a kernel's barrier trees from its source page, in
// program order: a level is a barrier, then (before the next) exactly two
// shared loads and one shared store of one base register, the loads at
// offset 0 and at a positive offset, the store at 0; the levels of a tree
// follow one another, each offset half the one before. Zero without the
// source page or a tree of minTreeLevels levels.
func BarrierTrees(a *Kernel) (t BarrierTree) {
	if len(a.Record.Source) == 0 {
		return t
	}
	p := programOf(a)
	type level struct {
		base         string
		off, width   int64
		loads, store float64
		bar          float64
		line         int
		n            int // shared accesses seen
		zeroLoad, ok bool
	}
	var cur *level
	var run []level // the tree being read
	flush := func() {
		if len(run) >= minTreeLevels {
			e := run[0].store
			warp := 0
			for _, l := range run {
				t.Levels++
				t.Loads += l.loads
				t.Stores += l.store
				t.Bars += l.bar
				if l.off < 32*l.width {
					warp++
				}
				if len(t.Lines) == 0 || t.Lines[len(t.Lines)-1] != l.line {
					t.Lines = append(t.Lines, l.line)
				}
			}
			t.WarpLevels += warp
			t.Kept += e * float64(warp+2)
			t.KeptBars += 2 * e
		}
		run = run[:0]
	}
	end := func() { // the region after a barrier ends
		if cur == nil {
			return
		}
		l := *cur
		cur = nil
		if !l.ok || !l.zeroLoad || l.n != 3 || !(l.off > 0) {
			flush()
			return
		}
		if len(run) > 0 && (run[len(run)-1].base != l.base || run[len(run)-1].off != 2*l.off) {
			flush()
		}
		run = append(run, l)
	}
	for i, r := range p.Recs {
		op, args := p.Fields(i)
		n := sourceInst(r)
		t.All += n
		base, _, _ := strings.Cut(op, ".")
		switch base {
		case "LDS", "STS", "LDG", "STG", "LD", "ST", "LDL", "STL", "SHFL", "ATOM", "ATOMG", "ATOMS", "RED", "REDG", "LDSM", "LDGSTS":
			t.Memory += n
		}
		switch {
		case op == "BAR" || strings.HasPrefix(op, "BAR.SYNC"):
			end()
			cur = &level{bar: n, ok: true}
			continue
		case base == "EXIT" || base == "BRA" || base == "RET" || base == "CALL":
			end()
			flush()
			continue
		}
		if cur == nil || (base != "LDS" && base != "STS") {
			continue
		}
		reg, off, ok := treeAddress(args, base == "STS")
		w := accessBytes(op)
		cur.n++
		switch {
		case !ok || cur.n > 3:
			cur.ok = false
		case cur.base == "":
			cur.base, cur.width = reg, w
		case cur.base != reg || cur.width != w:
			cur.ok = false
		}
		if !cur.ok {
			continue
		}
		switch {
		case base == "LDS" && off == 0:
			cur.zeroLoad = true
			cur.loads += n
			cur.line = r.Line
		case base == "LDS":
			cur.off = off
			cur.loads += n
		case off == 0:
			cur.store = n
		default:
			cur.ok = false
		}
	}
	end()
	flush()
	return t
}

// treeAddress reads a shared access's [Rb] or [Rb+0x..] operand: the
// load's last operand, the store's first.
func treeAddress(args []string, store bool) (reg string, off int64, ok bool) {
	if len(args) == 0 {
		return "", 0, false
	}
	a := args[len(args)-1]
	if store {
		a = args[0]
	}
	if !strings.HasPrefix(a, "[") || !strings.HasSuffix(a, "]") {
		return "", 0, false
	}
	a = strings.TrimSuffix(strings.TrimPrefix(a, "["), "]")
	reg, o, has := strings.Cut(a, "+")
	if !strings.HasPrefix(reg, "R") || strings.HasPrefix(reg, "RZ") {
		return "", 0, false
	}
	if !has {
		return reg, 0, true
	}
	v, err := strconv.ParseInt(strings.TrimPrefix(o, "0x"), 16, 64)
	if err != nil || !strings.HasPrefix(o, "0x") {
		return "", 0, false
	}
	return reg, v, true
}

// lessTree is l1Need's n less a barrier tree's levels (BarrierTrees),
// which are its warps' exchange, not shared-memory work of its own: the
// L1/shared time of what shuffles in their place leave.
func lessTree(a *Kernel, t float64, n need) need {
	pct, ok := a.Value("l1_sol_pct")
	tr := BarrierTrees(a)
	if !ok || !(pct > 0) || tr.Levels == 0 {
		return n
	}
	left := tr.MemoryLeft()
	if secs := t * pct / 100 * left / attainableL1; secs < n.secs {
		n.secs = secs
		n.why = fmt.Sprintf("L1/shared at %.0f%% of its peak, its barrier trees' %d levels a warp's exchange: %.0f%% of its shared and global instructions left with shuffles in their place, attainable %.0f%%",
			pct, tr.Levels, 100*left, 100*attainableL1)
	}
	return n
}
