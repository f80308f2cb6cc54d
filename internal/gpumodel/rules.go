package gpumodel

import "fmt"

// Coalescing is how a compute capability turns a warp's global accesses
// into memory transactions.
type Coalescing int

const (
	// CoalesceHalfWarpStrict (CC 1.0, 1.1): a half-warp coalesces only if
	// thread k reads word k of an aligned segment.
	CoalesceHalfWarpStrict Coalescing = iota + 1
	// CoalesceHalfWarpSegments (CC 1.2, 1.3): per half-warp, 32/64/128-B
	// segments, each halved while the upper or lower half goes unused.
	CoalesceHalfWarpSegments
	// CoalesceLines (CC 2.x–6.x): 128-B line transactions where L1
	// caches global loads, 32-B transactions where it does not.
	CoalesceLines
	// CoalesceSectored (CC 7.0 on): each warp is one request; L1 looks up
	// the distinct 128-B lines and moves the distinct 32-B sectors.
	CoalesceSectored
)

// Rules are the memory model's rules of a compute capability, as facts
// of the GPU: the coalescing, what L1 does with global loads, the shared
// banks and the tensor cores. The model and the rules read these fields,
// never a compute-capability comparison.
type Rules struct {
	CC         string // the table's compute capability the rules come from
	Coalescing Coalescing
	// GlobalL1 is whether L1 can cache global loads (not on CC 1.x), and
	// GlobalL1Default whether it does unless the kernel opts out (Fermi,
	// and Volta on); Kepler to Pascal cache them in L2 only unless the
	// kernel opts in (-Xptxas -dlcm=ca).
	GlobalL1, GlobalL1Default bool
	SharedBanks               int  // 16 on CC 1.x, whose banks serve a half-warp; 32 after
	BankWidth8                bool // Kepler's optional 8-byte bank mode
	Tensor                    TensorCores
	// FP16Lanes and IMADLanes are the results per clock per SM of 16-bit
	// floating-point multiply-adds and of 32-bit integer multiply-adds;
	// 0 where the table does not give them.
	FP16Lanes, IMADLanes int
	// SFULanes is the results per clock per SM of the 32-bit
	// transcendentals (MUFU: the XU pipe); 0 where not given.
	SFULanes int
	// Convert64Lanes is the results per clock per SM of the conversions
	// from and to 64-bit types (F2F.F64.F32, F2F.F32.F64); 0 where not
	// given.
	Convert64Lanes int
}

// WarpSectors reports whether a full warp's ideal sectors per request
// equal its access size in bytes (32 threads × S bytes / 32-B sectors):
// true where each warp is one request served in sectors.
func (r Rules) WarpSectors() bool { return r.Coalescing == CoalesceSectored }

// RulesOf returns the rules of compute capability cc: those of the table's
// entry for it, else of the newest entry before it (6.2 follows 6.1,
// 10.3 and 11.0 follow 10.0, a future 13.0 follows 12.0). An error for a
// compute capability that does not exist (4.x) or parse.
func RulesOf(cc string) (Rules, error) {
	key, err := ccKey(cc)
	if err != nil {
		return Rules{}, err
	}
	r, _ := ccRowOf(key)
	l := r.limits
	return Rules{CC: key, Coalescing: l.coalescing, GlobalL1: l.l1, GlobalL1Default: l.l1Default,
		SharedBanks: l.banks, BankWidth8: l.bank8, Tensor: r.tensor, FP16Lanes: r.fp16, IMADLanes: r.imad, SFULanes: r.sfu,
		Convert64Lanes: r.cvt64}, nil
}

// ccKey is the row of ccTable with limits whose rules cc follows (see
// RulesOf).
func ccKey(cc string) (string, error) {
	major, minor, err := ParseCC(cc)
	if err != nil {
		return "", err
	}
	if k := formatCC(major, minor); hasLimits(k) {
		return k, nil
	}
	if major == 4 {
		return "", fmt.Errorf("there is no compute capability %d.%d", major, minor)
	}
	best := ""
	for _, k := range sortedCCs() {
		if (k[0] < major || k[0] == major && k[1] <= minor) && hasLimits(formatCC(k[0], k[1])) {
			best = formatCC(k[0], k[1])
		}
	}
	if best == "" {
		return "", fmt.Errorf("compute capability %d.%d is older than the table", major, minor)
	}
	return best, nil
}
