package gpumodel

import (
	"strings"
)

// Spec is one GPU product as the analytic model sees it: the few datasheet
// numbers from which peak bandwidth, peak FLOP/s, machine balance and the
// coalescing and bank rules follow.
//
// Peaks are computed from clocks and widths rather than stored, so that a
// wrong table entry shows up as a disagreement with DatasheetBandwidth in the
// tests instead of being silently trusted.
type Spec struct {
	Name    string   // product name, as NVIDIA writes it
	Aliases []string // device names as CUDA, nvprof and ncu print them (matched by Lookup)
	Arch    string   // "Tesla", "Fermi", "Kepler", "Maxwell", "Pascal", "Volta", "Ampere", "Ada", "Hopper", "Blackwell"
	Chip    string   // "GK110B", "GH100", ...
	CC      string   // compute capability, "9.0"

	SMs        int     // streaming multiprocessors enabled on the product
	CoresPerSM int     // FP32 lanes per SM ("CUDA cores")
	FP64PerSM  int     // FP64 lanes per SM (one FMA or MAD per lane per clock); 0 when the chip has none
	SMClockMHz float64 // boost clock; for Tesla and Fermi the shader ("hot") clock, which drives the lanes
	// BaseClockMHz is the base clock where NVIDIA publishes one (0 when it
	// does not, or the product has a single clock). Datasheets of older
	// boards quote peak FLOP/s at this clock, so it explains why their
	// figures sit below PeakFP32.
	BaseClockMHz float64

	// MemClockMHz is the memory clock in CUDA's convention
	// (cudaDeviceProp.memoryClockRate, deviceQuery's "Memory Clock rate"),
	// which is half the per-pin data rate for every DRAM type NVIDIA has
	// used. The published talks use exactly these numbers (GTX 280: 1107 MHz, M2050:
	// 1546 MHz), so DataRate is 2 for every entry: GDDR3 and HBM move two
	// bits per pin per clock of this clock, and for GDDR5/5X/6/6X/7 CUDA
	// already reports the clock at half the effective Gb/s.
	MemClockMHz  float64
	BusWidthBits int
	DataRate     float64 // transfers per pin per MemClockMHz cycle

	// DatasheetBandwidth is the vendor's figure in GB/s (1e9 B/s). It is
	// not used by the model, only to check PeakBandwidth.
	DatasheetBandwidth float64
	// DatasheetFP32TFLOPs is the FP32 peak Source states at the boost
	// clock, in TFLOP/s; 0 where it states none (or states it at another
	// clock). Only the tests read it, to check SMs × lanes × clock.
	DatasheetFP32TFLOPs float64
	// Source names the documents the figures come from: the vendor's
	// datasheet or whitepaper, or a review or database quoting the
	// vendor's reference specifications.
	Source string
	// Unverified lists the figures of the entry that no source at hand
	// states ("L2", "boost clock"): the chip's usual value is kept so the
	// entry is complete, and listed here so a reader knows which to doubt.
	Unverified []string

	L1SharedPerSMBytes  int // on-chip L1 + shared storage per SM (the unified array where there is one)
	MaxSharedPerSMBytes int // the most of it a kernel can use as shared memory
	L2Bytes             int // 0 where global loads are not cached (CC 1.x)
	// MemoryGiB is the board's device memory as its name gives it ("80GB",
	// "141GB"), which CUDA reports within a few percent as total memory in
	// GiB; 0 where the table does not say. Only Identify uses it.
	MemoryGiB float64

	// NeedsMemoryClue keeps a board out of Identify's fit unless the
	// export gives the memory size: its DRAM clock and SM count are
	// another board's within the tolerances (the H100 NVL's are the
	// H100 SXM5's).
	NeedsMemoryClue bool
	// NameOnly keeps a board out of Identify's fit altogether: its DRAM
	// clock, memory and SM count are another board's (the H200 NVL's are
	// the H200 SXM's), so only its name tells it apart.
	NameOnly bool

	SharedBanks    int  // 16 for CC 1.x (serviced per half-warp), 32 after
	BankWidthBytes int  // 4 (successive 32-bit words in successive banks)
	BankWidth8     bool // Kepler's optional 8-byte bank mode (cudaSharedMemBankSizeEightByte)

	// Rules are the memory model's rules of the GPU's compute
	// capability: coalescing, L1 caching of global loads, banks, tensor
	// cores.
	Rules Rules

	MaxWarpsPerSM  int
	MaxBlocksPerSM int
	RegistersPerSM int // 32-bit registers
	WarpSize       int // 32 on every NVIDIA GPU
}

// PeakBandwidth is the theoretical DRAM bandwidth in bytes/s:
// MemClock·1e6 × BusWidth/8 × DataRate, the formula of the "How to
// Implement Performance Metrics" post and of Harris's GTX 280 slide, in
// decimal units (1 GB/s = 1e9 B/s) as both recommend.
func (s *Spec) PeakBandwidth() float64 {
	return s.MemClockMHz * 1e6 * float64(s.BusWidthBits) / 8 * s.DataRate
}

// PeakFP32 is the FP32 peak in FLOP/s at the boost clock: every lane
// retires one fused multiply-add (2 FLOPs) per clock.
//
// For the Tesla architecture (G80, GT200) NVIDIA's published figures
// (518 GFLOP/s for the 8800 GTX, 933 for the GTX 280) count a MUL
// dual-issued with each MAD, 3 FLOPs per lane per clock; that rate is
// rarely reachable, so the model keeps 2.
func (s *Spec) PeakFP32() float64 {
	return float64(s.SMs*s.CoresPerSM) * 2 * s.SMClockMHz * 1e6
}

// PeakFP64 is the FP64 peak in FLOP/s at the boost clock: FP64PerSM
// FMAs per SM per clock.
func (s *Spec) PeakFP64() float64 {
	return float64(s.SMs*s.FP64PerSM) * 2 * s.SMClockMHz * 1e6
}

// PeakFP16 is the non-tensor FP16 peak in FLOP/s at the boost clock:
// the compute capability's 16-bit multiply-add results per SM per clock
// (half2 instructions two each), 2 FLOPs each; 0 where not known.
func (s *Spec) PeakFP16() float64 {
	return float64(s.SMs*s.Rules.FP16Lanes) * 2 * s.SMClockMHz * 1e6
}

// PeakIMAD is the 32-bit integer multiply-add peak in operations per
// second at the boost clock; 0 where not known.
func (s *Spec) PeakIMAD() float64 {
	return float64(s.SMs*s.Rules.IMADLanes) * s.SMClockMHz * 1e6
}

// PeakSFU is the 32-bit transcendental peak (MUFU: sine, cosine,
// base-2 exponential and logarithm, reciprocal, its square root) in
// results per second at the boost clock; 0 where not known.
func (s *Spec) PeakSFU() float64 {
	return float64(s.SMs*s.Rules.SFULanes) * s.SMClockMHz * 1e6
}

// PeakConvert64 is the peak of the conversions from and to 64-bit types
// (float to double and back: F2F.F64.F32, F2F.F32.F64) in results per
// second at the boost clock; 0 where not known.
func (s *Spec) PeakConvert64() float64 {
	return float64(s.SMs*s.Rules.Convert64Lanes) * s.SMClockMHz * 1e6
}

// PeakWarpInstructions is the peak issue rate, in warp instructions per
// second, that the instruction:byte balance uses: CoresPerSM/WarpSize warp
// instructions per SM per clock, i.e. one instruction per FP32 lane per
// clock. That is the basis of the CPSC 424 GPU lecture's ratio, which multiplies
// per-SM issued warp instructions by #SMs × 32 threads, and of the 3.76 it
// quotes (see Balance). On GPUs that issue more warps per clock than their
// FP32 lanes retire (Kepler's dual issue, GA100/GH100 with 64 lanes and 4
// schedulers) it is the FP32 throughput, not the scheduler limit.
func (s *Spec) PeakWarpInstructions() float64 {
	return float64(s.SMs) * float64(s.CoresPerSM) / float64(s.warpSize()) * s.SMClockMHz * 1e6
}

func (s *Spec) warpSize() int {
	if s.WarpSize == 0 {
		return 32
	}
	return s.WarpSize
}

// Specs returns the model's GPU table, oldest first. The values are shared:
// callers must not modify them.
func Specs() []*Spec { return specs }

// Lookup finds the spec for a device name as a profiler export prints it,
// e.g. "Tesla K20c (0)", "NVIDIA H100 80GB HBM3" or "TITAN X (Pascal)".
//
// Matching ignores case and repeated spaces, a trailing device index
// " (N)" (nvprof) and an "NVIDIA " prefix (newer drivers add it). An exact
// alias match wins; otherwise the longest alias found inside the name on
// word boundaries wins, so "GeForce GTX 1080 Ti" picks the 1080 Ti and not
// the 1080, and "Tesla K20Xm" does not match "Tesla K20".
func Lookup(deviceName string) (*Spec, bool) {
	name := normalizeName(deviceName)
	if name == "" {
		return nil, false
	}
	var best *Spec
	bestLen := 0
	for _, s := range specs {
		for _, a := range s.allNames() {
			a = normalizeName(a)
			if a == name {
				return s, true
			}
			if len(a) > bestLen && containsWord(name, a) {
				best, bestLen = s, len(a)
			}
		}
	}
	return best, best != nil
}

// Resolve finds the GPU a user names (--device, model --arch): a device
// name as Lookup reads it, a short name that one family of the table
// carries ("H100", "A100", "T4", "RTX 4090"; the compute capability's
// representative, else the first, when several boards share it), or a
// compute capability ("sm_90", "8.6"), whose representative it returns.
func Resolve(name string) (*Spec, bool) {
	if s, ok := Lookup(name); ok {
		return s, true
	}
	n := normalizeName(name)
	if len(n) < 2 {
		return nil, false
	}
	// "RTX 4070" and "4070" name the GeForce board exactly, not the 4070
	// Ti and SUPER boards that contain the words.
	for _, s := range specs {
		for _, a := range s.allNames() {
			a = normalizeName(a)
			for _, p := range []string{"geforce rtx ", "geforce gtx ", "geforce "} {
				if t, ok := strings.CutPrefix(a, p); ok && (t == n || strings.TrimPrefix(p, "geforce ")+t == n) {
					return s, true
				}
			}
		}
	}
	var fits []*Spec
	for _, s := range specs {
		for _, a := range s.allNames() {
			a = normalizeName(a)
			if containsWord(a, n) || containsWord(strings.TrimPrefix(a, "geforce "), n) {
				fits = append(fits, s)
				break
			}
		}
	}
	if len(fits) > 0 {
		for _, s := range fits {
			if rep, ok := byCC(s.CC); ok && rep == s && sameFamily(fits) {
				return s, true
			}
		}
		if sameFamily(fits) {
			return fits[0], true
		}
		return nil, false
	}
	return byCC(name)
}

// sameFamily reports whether the GPUs share a chip: the boards of one
// product ("H100" is the SXM5, PCIe and NVL boards of the GH100).
func sameFamily(ss []*Spec) bool {
	for _, s := range ss {
		if s.Chip != ss[0].Chip {
			return false
		}
	}
	return true
}

func (s *Spec) allNames() []string {
	return append([]string{s.Name}, s.Aliases...)
}

// normalizeName lower-cases, collapses spaces, and drops the decorations
// exports add around the CUDA device name.
func normalizeName(n string) string {
	n = strings.ToLower(strings.Join(strings.Fields(n), " "))
	// nvprof appends the device index: "Tesla K20c (0)".
	if i := strings.LastIndex(n, " ("); i >= 0 && strings.HasSuffix(n, ")") {
		if idx := n[i+2 : len(n)-1]; idx != "" && strings.Trim(idx, "0123456789") == "" {
			n = n[:i]
		}
	}
	n = strings.TrimPrefix(n, "nvidia ")
	return n
}

// containsWord reports whether sub occurs in s with no letter or digit
// directly before or after it.
func containsWord(s, sub string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(sub)
		if (start == 0 || !isAlnum(s[start-1])) && (end == len(s) || !isAlnum(s[end])) {
			return true
		}
		i = start + 1
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// byCC returns a representative GPU for a compute capability given as
// "9.0", "sm_90", "90" or "9". It is for exports that name the compute
// capability but not the device; the peaks of other GPUs of the same CC
// differ, the coalescing and bank rules do not.
func byCC(cc string) (*Spec, bool) {
	major, minor, err := ParseCC(cc)
	if err != nil {
		return nil, false
	}
	row, ok := ccRowOf(formatCC(major, minor))
	if !ok || row.rep == "" {
		return nil, false
	}
	for _, s := range specs {
		if s.Name == row.rep {
			return s, true
		}
	}
	return nil, false
}
