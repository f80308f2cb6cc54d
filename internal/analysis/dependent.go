package analysis

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
)

// Chased reports whether the global load at the source page's address
// addr takes its address from a value a load of its own loop returned,
// in the same trip or the one before (a pointer chase, p = next[p]; a
// search, the next index chosen by comparing the loaded value, FSETP then
// SEL): each trip waits for the last one's load, so the loads are in
// flight one at a time however wide they are. False without the source
// page or where the load sits in no loop.
func Chased(a *Kernel, addr string) bool {
	if len(a.Record.Source) == 0 {
		return false
	}
	p := *programOf(a) // a copy: the shared program stays without predicates
	p.predicates = true
	return p.chased(addr)
}

// PointerChased is Chased without the compares: the load's address
// comes from a value a load of its loop returned by arithmetic alone (p
// = next[p]; e = pool[e].y, an index scaled and added), not from a
// search's compare of it. Each hop lands where the link leads, so the
// chain's layout, not the kernel's indexing, sets the sectors it moves.
// False without the source page or where the load sits in no loop.
func PointerChased(a *Kernel, addr string) bool {
	if len(a.Record.Source) == 0 {
		return false
	}
	return programOf(a).chased(addr)
}

// loopBody is the most instructions a loop's body may hold for chased to
// walk around it.
const loopBody = 256

// tripBefore is the order a walk back from instruction i through its
// loop visits: up to the loop's head, then from the backward branch that
// closes the loop down to i itself (the trip before). Nil outside a loop.
func (p *sassProgram) tripBefore(i int) []int {
	head, tail := p.loopAround(i)
	if head < 0 {
		return nil
	}
	var order []int
	for j := i - 1; j >= head; j-- {
		order = append(order, j)
	}
	for j := tail; j >= i; j-- {
		order = append(order, j)
	}
	return order
}

// chased walks the registers of the address of the instruction at addr
// backwards through its loop: from the instruction up to the loop's head,
// then from the backward branch that closes the loop down to the
// instruction itself (the trip before). A load writing one of them ends
// the walk.
func (p *sassProgram) chased(addr string) bool {
	i, ok := p.At[addr]
	if !ok {
		return false
	}
	order := p.tripBefore(i)
	if order == nil {
		return false
	}
	return p.loadFeeds(i, order)
}

// loopAround is the head and the closing backward branch of the loop
// around instruction i, within loopBody instructions; -1, -1 when none.
func (p *sassProgram) loopAround(i int) (head, tail int) {
	for j := i; j < len(p.Recs) && j <= i+loopBody; j++ {
		op, args := p.Fields(j)
		if !strings.HasPrefix(op, "BRA") || len(args) == 0 {
			continue
		}
		t, ok := p.At[branchTarget(args[len(args)-1], p.Recs)]
		if ok && t <= i && i-t <= loopBody {
			return t, j
		}
	}
	return -1, -1
}

// branchTarget is the address a branch operand names ("0x7f…d0"), in the
// spelling the page's addresses use; "" when the operand is no address.
func branchTarget(operand string, recs []profan.SourceRecord) string {
	s := strings.ToLower(strings.TrimSpace(operand))
	if !strings.HasPrefix(s, "0x") {
		return ""
	}
	v, err := strconv.ParseUint(s[2:], 16, 64)
	if err != nil {
		return ""
	}
	for _, r := range recs {
		w, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(r.Address), "0x"), 16, 64)
		if err == nil && w == v {
			return r.Address
		}
	}
	return ""
}

// AcquireFences is the addresses of a kernel's acquire fences that are
// no MEMBAR: the CCTL.IVALL (an L1 invalidation) right after a strong
// load, which is how an acquire load (cuda::atomic_ref's
// load(memory_order_acquire), ld.acquire.gpu) compiles: the load, then
// the invalidation that keeps later loads from reading stale lines, no
// MEMBAR (fixtures/sol-check16's acqLoad<0>: LD.E.STRONG.GPU then
// CCTL.IVALL for each of eight loads, the samples on the CCTL.IVALLs).
// The invalidation after a __threadfence's MEMBAR and ERRBAR follows no
// load and is not one. nil without one.
func AcquireFences(a *Kernel) map[string]bool {
	type inst struct {
		addr uint64
		op   string
		key  string
	}
	if !slices.ContainsFunc(a.Record.Source, func(s profan.SourceRecord) bool { return strings.Contains(s.SASS, "CCTL.IVALL") }) {
		return nil
	}
	var prog []inst
	seen := map[string]bool{}
	for _, s := range a.Record.Source {
		if s.Address == "" || s.SASS == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		op, _ := SASSFields(s.SASS)
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s.Address), "0x"), 16, 64)
		if err != nil {
			continue
		}
		prog = append(prog, inst{v, op, s.Address})
	}
	slices.SortFunc(prog, func(x, y inst) int { return cmp.Compare(x.addr, y.addr) })
	var out map[string]bool
	for i := 1; i < len(prog); i++ {
		if !strings.HasPrefix(prog[i].op, "CCTL.IVALL") {
			continue
		}
		prev := prog[i-1].op
		base, _, _ := strings.Cut(prev, ".")
		if (base == "LD" || base == "LDG") && strings.Contains(prev, ".STRONG") {
			if out == nil {
				out = map[string]bool{}
			}
			out[prog[i].key] = true
		}
	}
	return out
}

// FenceHeld reports the share of a kernel's sampled warp stalls spent on
// memory fences (MEMBAR and the ERRBAR and cache invalidation that follow
// a __threadfence) when it executes one for every two global memory
// instructions or more: a fence per access, whose wait for the access to
// be visible, not the access's width, holds the time. 0 when the kernel
// fences less often or the page has no sampling.
func FenceHeld(a *Kernel) float64 {
	var fences, accesses, fenceSamples, samples float64
	acquire := AcquireFences(a)
	seen := map[string]bool{}
	for _, s := range a.Record.Source {
		if s.Address == "" || s.SASS == "" || seen[s.Address] {
			continue
		}
		seen[s.Address] = true
		op, _ := SASSFields(s.SASS)
		base, _, _ := strings.Cut(op, ".")
		n := sourceInst(s)
		smp, _ := sourceSamples(s)
		samples += smp
		switch base {
		case "MEMBAR", "FENCE", "ERRBAR", "CGAERRBAR", "CCTL":
			fenceSamples += smp
			if base == "MEMBAR" || base == "FENCE" || acquire[s.Address] {
				fences += n
			}
		case "LDG", "STG", "ATOMG", "RED":
			accesses += n
		}
	}
	if !(accesses > 0) || !(fences > 0) || !(samples > 0) || fences < 0.5*accesses && !FencesSplitStores(a) {
		return 0
	}
	return fenceSamples / samples
}

// FencesSplitStores reports whether a kernel's memory fences (MEMBAR,
// FENCE) sit between its global stores, one for every two stores or
// more: a fence whose nearest global access before it and after it in
// program order are both stores orders the pair around it (a payload,
// __threadfence(), its flag, for each record), and the warp has one
// such pair in flight at a time, as with a fence after each store,
// though the kernel's loads may bring the fences under half its
// accesses (fixtures/sol-check17's pubFlag<0>: eight MEMBAR.SC.GPU, each
// between a payload and a flag STG, for sixteen stores and a load; 80 %
// of the sampled stalls on the fences and the ERRBARs after them; one
// fence between the eight payloads and the eight flags ran 0.30
// faster). False without a fence or a store.
func FencesSplitStores(a *Kernel) bool {
	type inst struct {
		addr uint64
		kind byte // 'f' a fence, 's' a store, 'a' another global access
		n    float64
	}
	var prog []inst
	seen := map[string]bool{}
	for _, s := range a.Record.Source {
		if s.Address == "" || s.SASS == "" || seen[s.Address] {
			continue
		}
		op, _ := SASSFields(s.SASS)
		base, _, _ := strings.Cut(op, ".")
		var kind byte
		switch base {
		case "MEMBAR", "FENCE":
			kind = 'f'
		case "STG", "ST":
			kind = 's'
		case "LDG", "LD", "ATOMG", "ATOM", "RED", "REDG":
			kind = 'a'
		default:
			continue
		}
		seen[s.Address] = true
		v, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s.Address), "0x"), 16, 64)
		if err != nil {
			continue
		}
		prog = append(prog, inst{v, kind, sourceInst(s)})
	}
	slices.SortFunc(prog, func(x, y inst) int { return cmp.Compare(x.addr, y.addr) })
	// nearest is the kind of the access nearest to i in direction d.
	nearest := func(i, d int) byte {
		for j := i + d; j >= 0 && j < len(prog); j += d {
			if prog[j].kind != 'f' {
				return prog[j].kind
			}
		}
		return 0
	}
	var splits, stores float64
	for i, x := range prog {
		switch {
		case x.kind == 's':
			stores += x.n
		case x.kind == 'f' && nearest(i, -1) == 's' && nearest(i, 1) == 's':
			splits += x.n
		}
	}
	return stores > 0 && splits >= 0.5*stores
}

// SelfChased reports whether the global load at addr takes its address
// from the value the same load returned on the loop's trip before (a
// loop-carried chain, p = parent[p] in a while loop): each trip's load
// waits for the last one's, and the walk's trips, not its width, set
// the loads it issues. False without the source page or a loop.
func SelfChased(a *Kernel, addr string) bool {
	if len(a.Record.Source) == 0 {
		return false
	}
	return programOf(a).selfChased(addr)
}

// selfChased is chased with the walk's end the load itself: its address
// registers traced back through the trip before to the load's own value.
func (p *sassProgram) selfChased(addr string) bool {
	i, ok := p.At[addr]
	if !ok {
		return false
	}
	order := p.tripBefore(i)
	if order == nil {
		return false
	}
	self := p.Recs[i].SASS
	return p.feeds(i, order, func(op string, args []string) bool {
		return isLoad(op) && strings.Contains(self, op) && strings.Contains(self, strings.Join(args, ", "))
	})
}

// ChainDepths is, for each global load of the source page, the length
// of the dependent chain it ends, in program order and loops or not: 1
// for a load whose address no global load's value computes, one more than
// its feeder's for one whose address the value of a global load computes
// (x[idx[i]] is 2; a walk node = next[node] unrolled 64 times reaches 65,
// and a sibling load val[node] of the same node has its next load's
// depth). Each address's registers are walked back over the loopBody
// instructions before it: the compiler defers a sibling's load well past
// the hop that chased its address (fixtures/sol-check17's listSum<0>
// loads val[node] up to 69 instructions after next[node]). Nil without
// the source page.
func ChainDepths(a *Kernel) map[string]int {
	if len(a.Record.Source) == 0 {
		return nil
	}
	p := programOf(a)
	depth := make([]int, len(p.Recs))
	out := map[string]int{}
	for i, r := range p.Recs {
		op, _ := p.Fields(i)
		if !isGlobalLoad(op) {
			continue
		}
		depth[i] = 1
		if j := p.feeder(i, chainWindow(i), func(op string, _ []string) bool { return isLoad(op) }); j >= 0 && depth[j] > 0 {
			depth[i] = depth[j] + 1
		}
		out[r.Address] = depth[i]
	}
	return out
}

// chainWindow is the indices of the loopBody instructions before the
// i-th, latest first: how far back ChainDepths walks an address.
func chainWindow(i int) []int {
	var order []int
	for j := i - 1; j >= 0 && j >= i-loopBody; j-- {
		order = append(order, j)
	}
	return order
}

// ComposedLinks is the middle links of a kernel's straight-line chains
// of dependent global loads (y[i] = v[p1[p2[i]]]): the loads, in no
// loop, whose address a global load's value computes and whose value
// computes a later global load's address (p1[·], between p2[i] and
// v[·]). A warp waits a memory round trip for each link before it can
// issue the next, and a composition computed once (p12 = p1∘p2, y[i] =
// v[p12[i]]) removes the middle links with their round trips and their
// sectors (fixtures/sol-check22's perm2<0>; its twin ran 0.62 faster). A
// gather's two levels (x[idx[i]]) have no middle link, and a loop's
// loads are a walk's (SelfChased, the unrolled walk's ChainDepths) or a
// CSR row's (x[col[j]], col[j] from row_ptr[i]'s bounds), not read here.
// Nil without the source page or such a chain.
func ComposedLinks(a *Kernel) map[string]bool {
	if len(a.Record.Source) == 0 {
		return nil
	}
	p := programOf(a)
	global := func(i int) bool {
		op, _ := p.Fields(i)
		return isGlobalLoad(op)
	}
	fed := map[int]bool{}   // loads whose address a global load's value computes
	feeds := map[int]bool{} // loads whose value a later global load's address reads
	for i := range p.Recs {
		if !global(i) {
			continue
		}
		if head, _ := p.loopAround(i); head >= 0 {
			continue
		}
		if j := p.feeder(i, chainWindow(i), func(op string, _ []string) bool { return isLoad(op) }); j >= 0 && global(j) {
			fed[i], feeds[j] = true, true
		}
	}
	var out map[string]bool
	for i := range feeds {
		if !fed[i] {
			continue
		}
		if out == nil {
			out = map[string]bool{}
		}
		out[p.Recs[i].Address] = true
	}
	return out
}

// BoxedLoads is, for each global load of the source page whose address is
// a pointer an earlier global load returned, unchanged (y[i] = *p[i]: the
// address operand's register pair, an immediate offset at most, written
// last by a 64-bit global load), that load's address: the values boxed
// behind pointers, each load waiting a memory round trip for its pointer
// and landing wherever the pointer leads (fixtures/sol-check24's
// boxedLoad<0>: LDG.E.64.CONSTANT R2, [R2.64] then LDG.E.CONSTANT R0,
// [R2.64]; its twin, the values unboxed beforehand, ran 0.89 faster). A
// gather's address computed from a loaded index (x[idx[i]], an IMAD.WIDE
// between) is not a box, nor is a load in a loop (a walk's: Chased).
// Nil without the source page or such a load.
func BoxedLoads(a *Kernel) map[string]string {
	if len(a.Record.Source) == 0 {
		return nil
	}
	p := programOf(a)
	var out map[string]string
	for i, r := range p.Recs {
		op, args := p.Fields(i)
		if !isGlobalLoad(op) {
			continue
		}
		if head, _ := p.loopAround(i); head >= 0 {
			continue
		}
		at := registers(addressOperand(args))
		if len(at) != 2 {
			continue
		}
		if j := p.lastWriter(i, at); j >= 0 {
			jop, jargs := p.Fields(j)
			if !isGlobalLoad(jop) || !strings.Contains(jop, ".64") || len(jargs) == 0 || !slices.Equal(registers(jargs[0]), at[:1]) {
				continue
			}
			if out == nil {
				out = map[string]string{}
			}
			out[r.Address] = p.Recs[j].Address
		}
	}
	return out
}

// lastWriter is the index of the instruction nearest before the i-th
// (within chainWindow) that writes any of regs, -1 for none.
func (p *sassProgram) lastWriter(i int, regs []int) int {
	for _, j := range chainWindow(i) {
		op, as := p.Fields(j)
		if len(as) > 1 && as[0] == "PT" {
			as = as[1:] // ATOMG PT, R3, [...]: the register after the predicate
		}
		if len(as) == 0 || strings.Contains(as[0], "[") {
			continue
		}
		dst := registers(as[0])
		if len(dst) == 1 && (strings.Contains(op, ".64") || strings.Contains(op, ".WIDE")) {
			dst = append(dst, dst[0]+1)
		}
		for _, d := range dst {
			if slices.Contains(regs, d) {
				return j
			}
		}
	}
	return -1
}
