package gpumodel

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// PatternKind is the shape of the addresses a warp's threads load.
type PatternKind int

const (
	// Sequential: thread i reads element i.
	Sequential PatternKind = iota
	// Offset: thread i reads element i+Offset (Harris's offsetCopy).
	Offset
	// Stride: thread i reads element i·Stride (Harris's strideCopy).
	Stride
	// Uniform: every thread reads element 0 (a broadcast).
	Uniform
	// Random: thread i reads element off[i], off a random permutation
	// (Pearson's "uncoalesced" case). Predictions are expected values.
	Random
)

var kindNames = [...]string{"sequential", "offset", "stride", "uniform", "random"}

func (k PatternKind) String() string {
	return enumName(k, kindNames[:], "PatternKind")
}

// Pattern is an access pattern over an array of elements whose base is
// 128-B aligned (cudaMalloc returns 256-B aligned memory).
type Pattern struct {
	Kind   PatternKind
	Offset int // elements, for Offset
	Stride int // elements, for Stride
}

// String formats p the way ParsePattern reads it.
func (p Pattern) String() string {
	switch p.Kind {
	case Offset:
		return "offset:" + strconv.Itoa(p.Offset)
	case Stride:
		return "stride:" + strconv.Itoa(p.Stride)
	}
	return p.Kind.String()
}

// ParsePattern parses "sequential", "offset:K", "stride:K", "uniform" or
// "random" (case-insensitive). K counts elements; offsets are ≥ 0 and
// strides ≥ 1.
func ParsePattern(s string) (Pattern, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	name, arg, hasArg := strings.Cut(t, ":")
	switch name {
	case "sequential", "uniform", "random":
		if hasArg {
			return Pattern{}, fmt.Errorf("parsing pattern %q: %s takes no argument", s, name)
		}
		k := map[string]PatternKind{"sequential": Sequential, "uniform": Uniform, "random": Random}[name]
		return Pattern{Kind: k}, nil
	case "offset", "stride":
		if !hasArg {
			return Pattern{}, fmt.Errorf("parsing pattern %q: want %s:K", s, name)
		}
		n, err := strconv.Atoi(arg)
		if err != nil {
			return Pattern{}, fmt.Errorf("parsing pattern %q: %s is not an integer", s, arg)
		}
		if name == "offset" {
			if n < 0 {
				return Pattern{}, fmt.Errorf("parsing pattern %q: offset must be >= 0", s)
			}
			return Pattern{Kind: Offset, Offset: n}, nil
		}
		if n < 1 {
			return Pattern{}, fmt.Errorf("parsing pattern %q: stride must be >= 1", s)
		}
		return Pattern{Kind: Stride, Stride: n}, nil
	}
	return Pattern{}, fmt.Errorf("parsing pattern %q: want sequential, offset:K, stride:K, uniform or random", s)
}

// L1Caching selects whether global loads are cached in L1 (see Options).
type L1Caching int

const (
	L1Default L1Caching = iota // the compute capability's default
	L1On                       // -Xptxas -dlcm=ca (or ld.global.ca)
	L1Off                      // -Xptxas -dlcm=cg: cached in L2 only
)

// Options adjusts Predict.
type Options struct {
	// L1 selects 128-B line transactions (on) or 32-B L2 transactions
	// (off) on CC 2.x–6.x. Defaults: on for Fermi (2.x), off for
	// Kepler–Pascal (3.x–6.x), where global loads are cached in L2 only
	// unless the kernel opts in. It is ignored on CC ≥ 7.0, whose L1
	// always looks loads up by 128-B line and fetches 32-B sectors, and
	// is an error on CC 1.x, which has no cache for global memory.
	L1 L1Caching
	// Elements is the length of the array Random indices are drawn from;
	// 0 means one element per thread, as in Pearson's permutation.
	Elements int64
}

// Prediction is what the model expects the profiler to count for one load
// instruction executed by threads threads (or its expected value, for
// Random). All counts are totals over the launch.
type Prediction struct {
	// Requests are warp-level load instructions: one per warp, partial
	// warps included (nvprof global_load_requests, ncu l1tex__t_requests).
	Requests float64
	// L1Transactions are 128-B L1 line lookups: distinct lines per
	// request. Zero where loads bypass L1 (CC 1.x, or L1 off on 2.x–6.x).
	L1Transactions float64
	// L2Sectors are 32-B sectors requested below L1: distinct sectors per
	// request, or 4 per line where L1 fetches whole 128-B lines (L1 on,
	// CC 2.x–6.x). On CC 1.x it is the DRAM traffic in 32-B units.
	L2Sectors float64
	// Transactions are what the generation's profiler calls transactions
	// (nvprof gld_transactions; ncu l1tex__t_sectors on CC ≥ 7.0): lines
	// with L1 on, sectors otherwise, 32/64/128-B segments on CC 1.x.
	Transactions float64
	// TransactionBytes is the size of one transaction, 0 where it varies
	// (the 32/64/128-B segments of CC 1.x).
	TransactionBytes int
	// Bytes is the traffic below L1 (to L2, or DRAM on CC 1.x) and
	// RequestedBytes what the threads asked for (active threads × size).
	Bytes, RequestedBytes float64

	// The ideal counts are those of the same threads reading contiguous,
	// aligned elements: per warp ceil(a·size/128) lines and
	// ceil(a·size/32) sectors for a active threads, and the Sequential
	// pattern's transactions on this compute capability.
	IdealRequests, IdealL1Transactions, IdealL2Sectors, IdealTransactions float64

	SectorsPerRequest, IdealSectorsPerRequest           float64
	TransactionsPerRequest, IdealTransactionsPerRequest float64
	// Efficiency is RequestedBytes/Bytes, the model's gld_efficiency as a
	// fraction. It exceeds 1 when threads share addresses (Uniform):
	// requested bytes count once per thread, moved bytes once.
	Efficiency float64
}

// rule is the coalescing rule of a compute capability and caching mode.
type rule int

const (
	ruleHalfWarpStrict   rule = iota // CC 1.0, 1.1
	ruleHalfWarpSegments             // CC 1.2, 1.3
	ruleLines                        // CC 2.x–6.x, L1 on: 128-B line transactions
	ruleSectors                      // CC 2.x–6.x, L1 off: 32-B transactions
	ruleSectored                     // CC ≥ 7.0: 128-B lines at L1, 32-B sectors to L2
)

func ruleFor(cc string, l1 L1Caching) (rule, error) {
	r, err := RulesOf(cc)
	if err != nil {
		return 0, fmt.Errorf("predict: %w", err)
	}
	if l1 == L1On && !r.GlobalL1 {
		return 0, fmt.Errorf("predict: cc %s has no l1 cache for global loads", r.CC)
	}
	switch r.Coalescing {
	case CoalesceHalfWarpStrict:
		return ruleHalfWarpStrict, nil
	case CoalesceHalfWarpSegments:
		return ruleHalfWarpSegments, nil
	case CoalesceLines:
		if l1 == L1On || l1 == L1Default && r.GlobalL1Default {
			return ruleLines, nil
		}
		return ruleSectors, nil
	}
	return ruleSectored, nil
}

const (
	lineBytes   = 128
	sectorBytes = 32
	warpSize    = 32
	halfWarp    = 16
)

// Slack is how far a measured count may exceed the model's figure and
// still be taken as it: real counters overshoot slightly (32.09 sectors
// per request measured for random 8-byte stores on an H200), so an
// instruction is above its ideal, a misalignment worth a word, or a
// block's warp efficiency below what its size explains, only past 5%.
const Slack = 1.05

// Predict models the global-load traffic of threads threads each loading
// one elemBytes-sized element (1, 2, 4, 8 or 16 bytes) with pattern p on a
// GPU of compute capability cc, with the default L1 caching.
func Predict(cc string, elemBytes int, threads int, p Pattern) (Prediction, error) {
	return PredictWith(cc, elemBytes, threads, p, Options{})
}

// PredictWith is Predict with options.
func PredictWith(cc string, elemBytes int, threads int, p Pattern, opt Options) (Prediction, error) {
	r, err := ruleFor(cc, opt.L1)
	if err != nil {
		return Prediction{}, err
	}
	switch elemBytes {
	case 1, 2, 4, 8, 16:
	default:
		return Prediction{}, fmt.Errorf("predict: element size %d bytes: want 1, 2, 4, 8 or 16", elemBytes)
	}
	if threads < 1 {
		return Prediction{}, fmt.Errorf("predict: %d threads: want at least 1", threads)
	}
	switch {
	case p.Kind < Sequential || p.Kind > Random:
		return Prediction{}, fmt.Errorf("predict: unknown pattern kind %d", int(p.Kind))
	case p.Kind == Offset && p.Offset < 0:
		return Prediction{}, fmt.Errorf("predict: offset %d: want >= 0", p.Offset)
	case p.Kind == Stride && p.Stride < 1:
		return Prediction{}, fmt.Errorf("predict: stride %d: want >= 1", p.Stride)
	}

	var c counts
	if p.Kind == Random {
		n := opt.Elements
		if n == 0 {
			n = int64(threads)
		}
		if n < int64(min(threads, warpSize)) {
			return Prediction{}, fmt.Errorf("predict: random over %d elements: a warp needs at least %d distinct ones", n, min(threads, warpSize))
		}
		c = randomCounts(r, elemBytes, threads, n)
	} else {
		c = patternCounts(r, elemBytes, threads, p)
	}
	pr := c.prediction(r, elemBytes)
	pr.RequestedBytes = float64(threads) * float64(elemBytes)

	// Ideal: contiguous and aligned, warp by warp.
	full, part := threads/warpSize, threads%warpSize
	idealWarp := func(a, unit int) float64 { return float64(ceilDiv(a*elemBytes, unit)) }
	pr.IdealRequests = pr.Requests
	pr.IdealL1Transactions = float64(full)*idealWarp(warpSize, lineBytes) + idealWarp(part, lineBytes)
	pr.IdealL2Sectors = float64(full)*idealWarp(warpSize, sectorBytes) + idealWarp(part, sectorBytes)
	if p.Kind == Sequential {
		pr.IdealTransactions = pr.Transactions
	} else {
		seq := patternCounts(r, elemBytes, threads, Pattern{Kind: Sequential}).prediction(r, elemBytes)
		pr.IdealTransactions = seq.Transactions
	}
	pr.SectorsPerRequest = pr.L2Sectors / pr.Requests
	pr.IdealSectorsPerRequest = pr.IdealL2Sectors / pr.Requests
	pr.TransactionsPerRequest = pr.Transactions / pr.Requests
	pr.IdealTransactionsPerRequest = pr.IdealTransactions / pr.Requests
	pr.Efficiency = pr.RequestedBytes / pr.Bytes
	return pr, nil
}

// counts are the raw tallies of one launch under one rule.
type counts struct {
	requests     float64
	lines        float64 // distinct 128-B lines per request, summed
	sectors      float64 // distinct 32-B sectors per request, summed
	segments     float64 // CC 1.x transactions
	segmentBytes float64 // CC 1.x bytes
}

func (c counts) prediction(r rule, elemBytes int) Prediction {
	p := Prediction{Requests: c.requests}
	switch r {
	case ruleHalfWarpStrict, ruleHalfWarpSegments:
		p.Transactions = c.segments
		p.Bytes = c.segmentBytes
		p.L2Sectors = c.segmentBytes / sectorBytes
	case ruleLines:
		p.L1Transactions = c.lines
		p.L2Sectors = 4 * c.lines
		p.Transactions = c.lines
		p.TransactionBytes = lineBytes
		p.Bytes = lineBytes * c.lines
	case ruleSectors:
		p.L2Sectors = c.sectors
		p.Transactions = c.sectors
		p.TransactionBytes = sectorBytes
		p.Bytes = sectorBytes * c.sectors
	case ruleSectored:
		p.L1Transactions = c.lines
		p.L2Sectors = c.sectors
		p.Transactions = c.sectors
		p.TransactionBytes = sectorBytes
		p.Bytes = sectorBytes * c.sectors
	}
	return p
}

// elementIndex is the element thread i reads under a deterministic pattern.
func elementIndex(p Pattern, i int64) int64 {
	switch p.Kind {
	case Offset:
		return i + int64(p.Offset)
	case Stride:
		return i * int64(p.Stride)
	case Uniform:
		return 0
	}
	return i
}

// patternCounts walks the launch warp by warp. A warp's counts depend only
// on its first address modulo 256 B (every block the rules use, from 32-B
// sectors to the 256-B segment of a CC 1.0 half-warp of 16-B words, is an
// aligned divisor of 256 B) and its number of active threads, so they are
// memoized on that key: the walk is O(warps) map lookups.
func patternCounts(r rule, e, threads int, p Pattern) counts {
	type key struct {
		mod    int64
		active int
	}
	memo := map[key]counts{}
	var total counts
	addrs := make([]int64, 0, warpSize)
	for w := 0; w*warpSize < threads; w++ {
		active := min(warpSize, threads-w*warpSize)
		base := elementIndex(p, int64(w*warpSize)) * int64(e)
		k := key{base % 256, active}
		c, ok := memo[k]
		if !ok {
			addrs = addrs[:0]
			for lane := 0; lane < active; lane++ {
				a := elementIndex(p, int64(w*warpSize+lane))*int64(e) - base + k.mod
				addrs = append(addrs, a)
			}
			c = warpCounts(r, e, addrs)
			memo[k] = c
		}
		total.requests += c.requests
		total.lines += c.lines
		total.sectors += c.sectors
		total.segments += c.segments
		total.segmentBytes += c.segmentBytes
	}
	return total
}

// warpCounts counts one warp; addrs[lane] is the byte address of active
// lane lane (lanes 0..len-1 are active).
func warpCounts(r rule, e int, addrs []int64) counts {
	c := counts{requests: 1}
	switch r {
	case ruleHalfWarpStrict, ruleHalfWarpSegments:
		for h := 0; h < len(addrs); h += halfWarp {
			hw := addrs[h:min(h+halfWarp, len(addrs))]
			var n, b float64
			if r == ruleHalfWarpStrict {
				n, b = strictHalfWarp(e, hw)
			} else {
				n, b = segmentHalfWarp(e, hw)
			}
			c.segments += n
			c.segmentBytes += b
		}
	default:
		c.lines = float64(distinct(addrs, lineBytes))
		c.sectors = float64(distinct(addrs, sectorBytes))
	}
	return c
}

// distinct counts the distinct unit-sized aligned blocks the addresses
// fall in. Elements are naturally aligned and at most 16 B, so an element
// never straddles a 32-B sector.
func distinct(addrs []int64, unit int64) int {
	ids := make([]int64, len(addrs))
	for i, a := range addrs {
		ids[i] = a / unit
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	n := 0
	for i, id := range ids {
		if i == 0 || id != ids[i-1] {
			n++
		}
	}
	return n
}

// strictHalfWarp applies the CC 1.0/1.1 rule (Programming Guide G.3.2.1,
// Harris: "K-th thread must access k-th word in the segment"): the
// half-warp coalesces only if words are 4, 8 or 16 B and every active
// thread k reads word k of one segment aligned to 16 words. That costs
// one 64-B transaction (4-B words), one 128-B (8-B) or two 128-B (16-B).
// Otherwise each active thread gets its own 32-B transaction.
func strictHalfWarp(e int, hw []int64) (n, bytes float64) {
	if e == 4 || e == 8 || e == 16 {
		seg := int64(halfWarp * e)
		first := hw[0] // lane 0 of the half-warp
		ok := first%seg == 0
		for k, a := range hw {
			if a != first+int64(k*e) {
				ok = false
				break
			}
		}
		if ok {
			switch e {
			case 4:
				return 1, 64
			case 8:
				return 1, 128
			default:
				return 2, 256
			}
		}
	}
	return float64(len(hw)), float64(len(hw)) * 32
}

// initialSegment is the CC 1.2/1.3 segment size for a word size: 32 B for
// 1-B words, 64 B for 2-B, 128 B for 4-, 8- and 16-B words.
func initialSegment(e int) int64 {
	switch e {
	case 1:
		return 32
	case 2:
		return 64
	}
	return 128
}

// segmentHalfWarp applies the CC 1.2/1.3 algorithm (Programming Guide
// G.3.2.2): take the lowest-numbered unserviced thread, find the segment
// holding its address, serve every unserviced thread in that segment,
// then halve the transaction (128→64→32 B) while the served addresses fit
// in the lower or upper half. Repeat until every thread is served.
func segmentHalfWarp(e int, hw []int64) (n, bytes float64) {
	s0 := initialSegment(e)
	done := make([]bool, len(hw))
	for i := range hw {
		if done[i] {
			continue
		}
		segStart := hw[i] / s0 * s0
		lo, hi := hw[i], hw[i]+int64(e) // served byte range [lo, hi)
		for j := i; j < len(hw); j++ {
			if !done[j] && hw[j]/s0*s0 == segStart {
				done[j] = true
				lo, hi = min(lo, hw[j]), max(hi, hw[j]+int64(e))
			}
		}
		size := s0
		for size > 32 && (hi-1)/(size/2) == lo/(size/2) {
			size /= 2
		}
		n++
		bytes += float64(size)
	}
	return n, bytes
}

// randomCounts is the exact expected value for Random: each warp's a
// active threads read a uniformly random a-subset of the n elements (the
// warp's slice of a random permutation, drawn without replacement). By
// linearity, E[distinct blocks] = Σ_blocks P(some thread hits the block)
// = Σ_blocks 1 − C(n−m, a)/C(n, a), m the block's elements.
func randomCounts(r rule, e, threads int, n int64) counts {
	full, part := threads/warpSize, threads%warpSize
	var c counts
	add := func(warps float64, a int) {
		if warps == 0 || a == 0 {
			return
		}
		c.requests += warps
		switch r {
		case ruleHalfWarpStrict:
			// Coalescing needs thread k on word k of an aligned segment;
			// the chance a random permutation does that is negligible
			// (below 1e-60 for a half-warp of 10,000 elements), so every
			// active thread gets its own 32-B transaction.
			c.segments += warps * float64(a)
			c.segmentBytes += warps * float64(a) * 32
		case ruleHalfWarpSegments:
			for h := 0; h < a; h += halfWarp {
				ah := min(halfWarp, a-h)
				segs, bytes := expectedSegments(e, n, ah)
				c.segments += warps * segs
				c.segmentBytes += warps * bytes
			}
		default:
			c.lines += warps * expectedBlocks(e, n, a, lineBytes)
			c.sectors += warps * expectedBlocks(e, n, a, sectorBytes)
		}
	}
	add(float64(full), warpSize)
	add(1, part)
	return c
}

// missProb is C(n−m, a)/C(n, a): the probability that none of a distinct
// indices drawn uniformly from n falls in a given set of m of them.
func missProb(n, m int64, a int) float64 {
	if m <= 0 {
		return 1
	}
	p := 1.0
	for j := 0; j < a; j++ {
		num := n - m - int64(j)
		if num <= 0 {
			return 0
		}
		p *= float64(num) / float64(n-int64(j))
	}
	return p
}

// expectedBlocks is the expected number of distinct unit-byte blocks that a
// random a-subset of n e-byte elements touches: full blocks hold unit/e
// elements, the last one the remainder.
func expectedBlocks(e int, n int64, a int, unit int) float64 {
	per := int64(unit / e)
	fullBlocks, rem := n/per, n%per
	ex := float64(fullBlocks) * (1 - missProb(n, per, a))
	if rem > 0 {
		ex += 1 - missProb(n, rem, a)
	}
	return ex
}

// expectedSegments is the CC 1.2/1.3 rule's expected transactions and
// bytes for a half-warp of a threads reading random distinct elements.
// A transaction's size is the smallest aligned block of the segment's
// halving hierarchy (s0, s0/2, ..., 32 B) that holds all the segment's
// hits, so its expected size is
//
//	s0·P(hit) − Σ_{s < s0} s·P(hit, all hits within one block of size s)
//
// and P(hit, all within block B) = P(no hit in seg∖B) − P(no hit in seg).
func expectedSegments(e int, n int64, a int) (segs, bytes float64) {
	s0 := initialSegment(e)
	total := n * int64(e) // array bytes, base aligned
	for start := int64(0); start < total; {
		length := min(s0, total-start)
		// All full segments are alike: do them at once.
		count := int64(1)
		if length == s0 {
			count = (total - start) / s0
		}
		m := length / int64(e)
		pHit := 1 - missProb(n, m, a)
		exp := float64(s0) * pHit
		for s := s0 / 2; s >= 32; s /= 2 {
			for b := int64(0); b < length; b += s {
				mb := (min(b+s, length) - b) / int64(e)
				exp -= float64(s) * (missProb(n, m-mb, a) - missProb(n, m, a))
			}
		}
		segs += float64(count) * pHit
		bytes += float64(count) * exp
		start += count * s0
	}
	return segs, bytes
}

// Ideal holds the ideal (contiguous, aligned) transaction counts from
// Pearson's formula T_i = E·(S/8)/128, with E the predicated-on thread
// instructions executed and S the access size in bits (elemBytes = S/8).
type Ideal struct {
	L1, L2               float64 // E·(S/8)/128 lines and E·(S/8)/32 sectors, as the formula gives them
	L1PerWarp, L2PerWarp float64 // for one full warp: ceil(32·size/128) lines, ceil(32·size/32) sectors
}

// IdealSectors evaluates Pearson's ideal for measured activeThreads (E)
// and access size. The totals are not rounded per warp: for 10,000 float
// loads the formula gives 312.5 lines where Predict's warp-granular ideal,
// like the profiler, counts 313.
func IdealSectors(elemBytes, activeThreads float64) Ideal {
	return Ideal{
		L1:        activeThreads * elemBytes / lineBytes,
		L2:        activeThreads * elemBytes / sectorBytes,
		L1PerWarp: math.Ceil(warpSize * elemBytes / lineBytes),
		L2PerWarp: math.Ceil(warpSize * elemBytes / sectorBytes),
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
