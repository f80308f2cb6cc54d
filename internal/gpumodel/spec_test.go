package gpumodel

import (
	"math"
	"sort"
	"strings"
	"testing"
)

func within(got, want, frac float64) bool {
	return math.Abs(got-want) <= frac*math.Abs(want)
}

func mustLookup(t *testing.T, name string) *Spec {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q): not found", name)
	}
	return s
}

// The bandwidth figures the published talks quote, within 1%.
func TestPeakBandwidthSeeds(t *testing.T) {
	tests := []struct {
		device string
		gbps   float64
		source string
	}{
		{"GeForce GTX 280", 141, "harris: specs report 141 GB/s"},
		{"Quadro FX 5600", 77, "harris: FX 5600 peak bandwidth of 77 GB/s"},
		{"Tesla C2050", 144, "harris: 144 GB/s peak (C2050)"},
		{"Tesla M2050", 148, "how-to-measure: 148 GB/s"},
		{"Tesla M2090", 177, "cpsc424: M2090 177 GB/s"},
		{"Tesla K20X", 250, "cpsc424: K20X 250 GB/s"},
		{"Tesla K40", 288, "cpsc424: ~288 GB/s on K40"},
		{"Tesla P100-PCIE-12GB", 549, "pyramid: listed at 549 GB/s"},
		{"Tesla K80", 240, "cpsc424: K80 480 GB/s per board of two GPUs"},
	}
	for _, tt := range tests {
		t.Run(tt.device, func(t *testing.T) {
			s := mustLookup(t, tt.device)
			if got := s.PeakBandwidth() / 1e9; !within(got, tt.gbps, 0.01) {
				t.Errorf("%s PeakBandwidth: got %.1f GB/s, want %g ± 1%% (%s)", tt.device, got, tt.gbps, tt.source)
			}
		})
	}
	// The GTX 280 slide's binary-units figure: / 1024^3 = 131.9.
	if got := mustLookup(t, "GeForce GTX 280").PeakBandwidth() / (1 << 30); math.Abs(got-131.9) > 0.1 {
		t.Errorf("GTX 280 bandwidth in GiB/s: got %.2f, want 131.9", got)
	}
}

// Every entry's computed bandwidth agrees with its datasheet figure, which
// catches a wrong clock, width or data rate in the table.
func TestPeakBandwidthDatasheet(t *testing.T) {
	for _, s := range Specs() {
		got := s.PeakBandwidth() / 1e9
		if !within(got, s.DatasheetBandwidth, 0.02) {
			t.Errorf("%s: PeakBandwidth %.1f GB/s, want datasheet %g ± 2%% (%g MHz × %d bit × %g)",
				s.Name, got, s.DatasheetBandwidth, s.MemClockMHz, s.BusWidthBits, s.DataRate)
		}
	}
}

func TestSpecsComplete(t *testing.T) {
	archs := map[string]bool{"Tesla": true, "Fermi": true, "Kepler": true, "Maxwell": true, "Pascal": true,
		"Volta": true, "Turing": true, "Ampere": true, "Ada": true, "Hopper": true, "Blackwell": true}
	seen := map[string]string{}
	for _, s := range Specs() {
		if !archs[s.Arch] {
			t.Errorf("%s: arch %q unknown", s.Name, s.Arch)
		}
		if !hasLimits(s.CC) {
			t.Errorf("%s: cc %q has no limits", s.Name, s.CC)
		}
		if s.SMs <= 0 || s.CoresPerSM <= 0 || s.SMClockMHz <= 0 || s.MemClockMHz <= 0 || s.BusWidthBits <= 0 ||
			s.DataRate != 2 || s.DatasheetBandwidth <= 0 || s.MaxWarpsPerSM <= 0 || s.RegistersPerSM <= 0 ||
			s.MaxSharedPerSMBytes <= 0 || s.L1SharedPerSMBytes < s.MaxSharedPerSMBytes || s.WarpSize != 32 || s.BankWidthBytes != 4 {
			t.Errorf("%s: incomplete or inconsistent: %+v", s.Name, *s)
		}
		wantBanks := 32
		if strings.HasPrefix(s.CC, "1.") {
			wantBanks = 16
			if s.L2Bytes != 0 {
				t.Errorf("%s: L2 %d, want 0 (CC 1.x does not cache global loads)", s.Name, s.L2Bytes)
			}
		} else if s.L2Bytes <= 0 {
			t.Errorf("%s: L2 missing", s.Name)
		}
		if s.SharedBanks != wantBanks {
			t.Errorf("%s: got %d banks, want %d", s.Name, s.SharedBanks, wantBanks)
		}
		if s.BankWidth8 != strings.HasPrefix(s.CC, "3.") {
			t.Errorf("%s: BankWidth8 %v, want only on Kepler", s.Name, s.BankWidth8)
		}
		if s.BaseClockMHz > s.SMClockMHz {
			t.Errorf("%s: base clock %g above boost %g", s.Name, s.BaseClockMHz, s.SMClockMHz)
		}
		for _, n := range s.allNames() {
			k := normalizeName(n)
			if other, dup := seen[k]; dup {
				t.Errorf("name %q of %s already names %s", n, s.Name, other)
			}
			seen[k] = s.Name
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct{ device, want string }{
		{"Tesla K20c", "Tesla K20c"},
		{"Tesla K20c (0)", "Tesla K20c"},
		{"Tesla K20m (1)", "Tesla K20"},
		{"Tesla K20Xm", "Tesla K20X"},
		{"Tesla K40c", "Tesla K40c"},
		{"Tesla K40m", "Tesla K40"},
		{"Tesla K80 (3)", "Tesla K80"},
		{"GeForce GTX 1080 Ti", "GeForce GTX 1080 Ti"},
		{"NVIDIA GeForce GTX 1080", "GeForce GTX 1080"},
		{"GeForce GTX 1080 (0)", "GeForce GTX 1080"},
		{"TITAN X (Pascal)", "TITAN X (Pascal)"},
		{"NVIDIA TITAN X (Pascal) (0)", "TITAN X (Pascal)"},
		{"TITAN Xp", "TITAN Xp"},
		{"NVIDIA TITAN Xp", "TITAN Xp"},
		{"GeForce GTX TITAN X", "GeForce GTX TITAN X"},
		{"GeForce GTX TITAN", "GeForce GTX TITAN"},
		{"TITAN V", "TITAN V"},
		{"Tesla V100-SXM2-16GB", "Tesla V100-SXM2-16GB"},
		{"Tesla V100-SXM2-32GB", "Tesla V100-SXM2-32GB"},
		{"Tesla V100-PCIE-32GB", "Tesla V100-PCIE-16GB"},
		{"Tesla P100-PCIE-12GB", "Tesla P100-PCIE-12GB"},
		{"Tesla P100-PCIE-16GB", "Tesla P100-PCIE-16GB"},
		{"A100-SXM4-40GB", "A100-SXM4-40GB"},
		{"NVIDIA A100-PCIE-40GB", "A100-SXM4-40GB"},
		{"NVIDIA A100-SXM4-80GB", "A100-SXM4-80GB"},
		{"NVIDIA H100 80GB HBM3", "H100 SXM5 80GB"},
		{"NVIDIA H100 PCIe", "H100 PCIe"},
		{"NVIDIA H200", "H200"},
		{"NVIDIA B200", "B200"},
		{"NVIDIA GeForce RTX 5090", "GeForce RTX 5090"},
		{"NVIDIA RTX 6000 Ada Generation", "RTX 6000 Ada Generation"},
		{"nvidia  geforce   rtx 5090 (0)", "GeForce RTX 5090"},
		{"GeForce GTX 280", "GeForce GTX 280"},
		{"GeForce 8800 GTX", "GeForce 8800 GTX"},
		{"Quadro FX 5600", "Quadro FX 5600"},
		{"Tesla C2050", "Tesla C2050"},
		{"Tesla M2050", "Tesla M2050"},
		{"Tesla M2075", "Tesla M2075"},
		{"Tesla M2090", "Tesla M2090"},
		{"GeForce GTX 760", "GeForce GTX 760"},
		{"GeForce GTX 950", "GeForce GTX 950"},
	}
	for _, tt := range tests {
		t.Run(tt.device, func(t *testing.T) {
			s, ok := Lookup(tt.device)
			if !ok {
				t.Errorf("Lookup(%q): not found, want %s", tt.device, tt.want)
				return
			}
			if s.Name != tt.want {
				t.Errorf("Lookup(%q): got %s, want %s", tt.device, s.Name, tt.want)
			}
		})
	}
	// Names that must not be mistaken for a listed GPU.
	for _, device := range []string{"", "Tesla V100S-PCIE-32GB", "GeForce GTX 10800", "Tesla K2", "(0)"} {
		if s, ok := Lookup(device); ok {
			t.Errorf("Lookup(%q): got %s, want no match", device, s.Name)
		}
	}
}

func TestByCC(t *testing.T) {
	tests := []struct{ cc, want string }{
		{"9.0", "H100 SXM5 80GB"},
		{"sm_90", "H100 SXM5 80GB"},
		{"90", "H100 SXM5 80GB"},
		{"8.0", "A100-SXM4-40GB"},
		{"7.0", "Tesla V100-SXM2-16GB"},
		{"6.1", "GeForce GTX 1080"},
		{"6.0", "Tesla P100-PCIE-16GB"},
		{"12.0", "GeForce RTX 5090"},
		{"sm_120", "GeForce RTX 5090"},
		{"10.0", "B200"},
		{"sm_100a", "B200"},
		{"8.9", "RTX 6000 Ada Generation"},
		{"3.5", "Tesla K40"},
		{"3.7", "Tesla K80"},
		{"7.5", "Tesla T4"},
		{"sm_86", "A10"},
		{"8.7", "Jetson AGX Orin"},
		{"2.0", "Tesla C2050"},
		{"1.3", "GeForce GTX 280"},
	}
	for _, tt := range tests {
		t.Run(tt.cc, func(t *testing.T) {
			s, ok := byCC(tt.cc)
			if !ok {
				t.Errorf("byCC(%q): not found, want %s", tt.cc, tt.want)
				return
			}
			if s.Name != tt.want {
				t.Errorf("byCC(%q): got %s, want %s", tt.cc, s.Name, tt.want)
			}
			if major, minor, _ := ParseCC(tt.cc); s.CC != formatCC(major, minor) {
				t.Errorf("byCC(%q): got a CC %s GPU", tt.cc, s.CC)
			}
		})
	}
	for _, cc := range []string{"4.0", "x", ""} {
		if s, ok := byCC(cc); ok {
			t.Errorf("byCC(%q): got %s, want no match", cc, s.Name)
		}
	}
	for _, cc := range CCs() {
		if _, ok := byCC(cc); !ok {
			t.Errorf("byCC(%q) of CCs(): not found", cc)
		}
	}
}

func TestParseCC(t *testing.T) {
	tests := []struct {
		in           string
		major, minor int
	}{
		{"7.0", 7, 0}, {"7", 7, 0}, {"sm_70", 7, 0}, {"compute_75", 7, 5}, {"86", 8, 6},
		{"sm_90a", 9, 0}, {"12.0", 12, 0}, {"sm_120", 12, 0}, {"100", 10, 0}, {" 1.3 ", 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			major, minor, err := ParseCC(tt.in)
			if err != nil || major != tt.major || minor != tt.minor {
				t.Errorf("ParseCC(%q): got %d.%d, %v, want %d.%d", tt.in, major, minor, err, tt.major, tt.minor)
			}
		})
	}
}

func TestParseCCError(t *testing.T) {
	for _, in := range []string{"", "sm_", "x.y", "7.", "0", "7.10", "-1"} {
		_, _, err := ParseCC(in)
		if err == nil {
			t.Errorf("ParseCC(%q): got no error", in)
		} else if !strings.HasPrefix(err.Error(), "parsing compute capability") {
			t.Errorf("ParseCC(%q): error %q does not name the stage", in, err)
		}
	}
}

// FLOP peaks against the published talks and datasheets. Older boards quote their
// base clock, newer ones their boost clock.
func TestPeakFLOPs(t *testing.T) {
	atBase := func(s *Spec, lanes int) float64 {
		return float64(s.SMs*lanes) * 2 * s.BaseClockMHz * 1e6
	}
	tests := []struct {
		name      string
		got, want float64 // TFLOP/s
	}{
		{"M2090 SP (cpsc424: 1331)", mustLookup(t, "Tesla M2090").PeakFP32(), 1.331e12},
		{"M2090 DP (cpsc424: 665)", mustLookup(t, "Tesla M2090").PeakFP64(), 0.665e12},
		{"M2050 SP (how-to-measure: 1030)", mustLookup(t, "Tesla M2050").PeakFP32(), 1.030e12},
		{"M2050 DP (how-to-measure: 515)", mustLookup(t, "Tesla M2050").PeakFP64(), 0.515e12},
		{"K80 board SP (cpsc424: 8730)", 2 * mustLookup(t, "Tesla K80").PeakFP32(), 8.730e12},
		{"K80 board DP (cpsc424: 2910)", 2 * mustLookup(t, "Tesla K80").PeakFP64(), 2.910e12},
		{"K40 SP at base", atBase(mustLookup(t, "Tesla K40"), 192), 4.29e12},
		{"K40 DP at base", atBase(mustLookup(t, "Tesla K40"), 64), 1.43e12},
		{"K20X DP", mustLookup(t, "Tesla K20X").PeakFP64(), 1.31e12},
		{"P100 12GB DP at base (pyramid: 4.035)", atBase(mustLookup(t, "Tesla P100-PCIE-12GB"), 32), 4.035e12},
		{"V100 SXM2 DP", mustLookup(t, "Tesla V100-SXM2-16GB").PeakFP64(), 7.8e12},
		{"A100 SP", mustLookup(t, "A100-SXM4-40GB").PeakFP32(), 19.5e12},
		{"A100 DP", mustLookup(t, "A100-SXM4-40GB").PeakFP64(), 9.7e12},
		{"H100 SXM SP", mustLookup(t, "H100 80GB HBM3").PeakFP32(), 67e12},
		{"H100 SXM DP", mustLookup(t, "H100 80GB HBM3").PeakFP64(), 34e12},
		{"H100 PCIe DP", mustLookup(t, "H100 PCIe").PeakFP64(), 26e12},
		{"RTX 6000 Ada SP", mustLookup(t, "RTX 6000 Ada Generation").PeakFP32(), 91.1e12},
		{"RTX 5090 SP", mustLookup(t, "GeForce RTX 5090").PeakFP32(), 104.8e12},
		{"GTX 280 DP", mustLookup(t, "GeForce GTX 280").PeakFP64(), 77.8e9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !within(tt.got, tt.want, 0.02) {
				t.Errorf("%s: got %.4g FLOP/s, want %.4g ± 2%%", tt.name, tt.got, tt.want)
			}
		})
	}
}

// TestPeakConvert64: the conversions from and to 64-bit types run at 16
// a clock an SM where the table gives them (the H200: 132 SMs at 1980
// MHz, 4.18 T a second, which put fixtures/sol-check19's relaxMap<0>, 71.3
// M F2F warp instructions, at 94 % of its 583 µs as ncu's XU pipe read
// it) and at none where it does not.
func TestPeakConvert64(t *testing.T) {
	if got := mustLookup(t, "H200").PeakConvert64(); !within(got, 132*16*1980e6, 0.001) {
		t.Errorf("H200: %.4g conversions a second, want %.4g", got, 132*16*1980e6)
	}
	if got := mustLookup(t, "RTX 6000 Ada Generation").PeakConvert64(); got != 0 {
		t.Errorf("RTX 6000 Ada: %.4g conversions a second, want 0 (not given)", got)
	}
}

// Balance is the machine's instruction:byte balance as the CPSC 424 GPU lecture
// defines it for profiler counters: peak warp instructions per second
// divided by peak DRAM transactions per second, where one transaction is
// 32 B (dram_reads/dram_writes count 32-B accesses):
//
//	Balance = PeakWarpInstructions / (PeakBandwidth / 32 B)
//
// This equals peak thread instructions per byte. A kernel whose measured
// 32·#SMs·inst_issued : 32 B·(dram_reads+dram_writes) ratio is below
// Balance is memory bound.
//
// The CPSC 424 GPU lecture's "ratios less than 3.76 are memory bound" is the Tesla M2090's
// balance: 16 SMs × 32 lanes × 1.3 GHz = 665.6 G instructions/s over its
// datasheet 177 GB/s gives 3.76 (3.75 with the computed 177.4 GB/s). The
// K40/K80 figures on the same slide give 8.7 to 9.1, not 3.76.
func (s *Spec) Balance() float64 {
	bw := s.PeakBandwidth()
	if bw == 0 {
		return 0
	}
	return s.PeakWarpInstructions() / (bw / 32)
}

// RidgeFP32 is the roofline ridge point for FP32 in FLOP/byte: a kernel
// whose DRAM arithmetic intensity is below it cannot reach PeakFP32.
func (s *Spec) RidgeFP32() float64 { return ratio(s.PeakFP32(), s.PeakBandwidth()) }

// RidgeFP64 is the roofline ridge point for FP64 in FLOP/byte.
func (s *Spec) RidgeFP64() float64 { return ratio(s.PeakFP64(), s.PeakBandwidth()) }

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// TensorCores returns what the GPU's tensor cores take.
func (s *Spec) TensorCores() TensorCores { return s.Rules.Tensor }

// The CPSC 424 GPU lecture: "Ratios less than 3.76 are memory bound". That is the
// M2090's balance: 16 SMs × 32 lanes × 1.3 GHz / 177 GB/s.
func TestBalance(t *testing.T) {
	m2090 := mustLookup(t, "Tesla M2090")
	if got := m2090.Balance(); !within(got, 3.76, 0.005) {
		t.Errorf("M2090 Balance: got %.3f, want 3.76 ± 0.5%%", got)
	}
	// Same ratio in thread instructions per byte.
	perByte := float64(m2090.SMs*m2090.CoresPerSM) * m2090.SMClockMHz * 1e6 / m2090.PeakBandwidth()
	if got := m2090.Balance(); math.Abs(got-perByte) > 1e-9 {
		t.Errorf("M2090 Balance: got %v, want thread instructions per byte %v", got, perByte)
	}
	// The K40 on the same slide is far from 3.76.
	if got := mustLookup(t, "Tesla K40").Balance(); !within(got, 8.74, 0.01) {
		t.Errorf("K40 Balance: got %.3f, want 8.74", got)
	}
}

func TestRidge(t *testing.T) {
	for _, s := range Specs() {
		if got, want := s.RidgeFP32(), s.PeakFP32()/s.PeakBandwidth(); got != want {
			t.Errorf("%s RidgeFP32: got %v, want %v", s.Name, got, want)
		}
		if s.FP64PerSM > 0 && s.RidgeFP64() >= s.RidgeFP32() {
			t.Errorf("%s: FP64 ridge %v not below FP32 ridge %v", s.Name, s.RidgeFP64(), s.RidgeFP32())
		}
	}
	tests := []struct {
		device     string
		fp32, fp64 float64
	}{
		{"Tesla V100-SXM2-16GB", 17.45, 8.72},
		{"H100 80GB HBM3", 19.96, 9.98},
		{"Tesla P100-PCIE-12GB", 17.01, 8.50},
	}
	for _, tt := range tests {
		t.Run(tt.device, func(t *testing.T) {
			s := mustLookup(t, tt.device)
			if !within(s.RidgeFP32(), tt.fp32, 0.005) || !within(s.RidgeFP64(), tt.fp64, 0.005) {
				t.Errorf("%s ridges: got %.2f, %.2f FLOP/B, want %.2f, %.2f", tt.device, s.RidgeFP32(), s.RidgeFP64(), tt.fp32, tt.fp64)
			}
		})
	}
}

func TestResolveArch(t *testing.T) {
	tests := []struct{ in, want string }{
		{"7.0", "7.0"}, {"sm_86", "8.6"}, {"Volta", "7.0"}, {"hopper", "9.0"}, {"Kepler", "3.5"},
		{"Ada Lovelace", "8.9"}, {"Tesla", "1.3"}, {"Tesla K20c", "3.5"}, {"NVIDIA H100 80GB HBM3", "9.0"},
		{"TITAN V", "7.0"}, {"Quadro FX 5600 (0)", "1.0"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ResolveArch(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ResolveArch(%q): got %q, %v, want %q", tt.in, got, err, tt.want)
			}
		})
	}
	for _, in := range []string{"", "4.0", "Larrabee", "sm_"} {
		if got, err := ResolveArch(in); err == nil {
			t.Errorf("ResolveArch(%q): got %q, want an error", in, got)
		} else if !strings.HasPrefix(err.Error(), "resolving arch") {
			t.Errorf("ResolveArch(%q): error %q does not name the stage", in, err)
		}
	}
}

// TestShortNames: what users type for the GPUs they run on names one entry
// of the table: short names, the names CUDA prints, and compute
// capabilities.
func TestShortNames(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"H100", "H100 SXM5 80GB"}, {"A100", "A100-SXM4-40GB"}, {"T4", "Tesla T4"}, {"V100", "Tesla V100-SXM2-16GB"},
		{"P100", "Tesla P100-PCIE-16GB"}, {"A10", "A10"}, {"A10G", "A10G"}, {"NVIDIA A10G", "A10G"}, {"A30", "A30"},
		{"A40", "A40"}, {"L4", "L4"}, {"L40", "L40"}, {"L40S", "L40S"}, {"NVIDIA L40S", "L40S"}, {"H100 NVL", "H100 NVL"},
		{"NVIDIA H100 NVL", "H100 NVL"}, {"H100 PCIe", "H100 PCIe"}, {"H200", "H200"}, {"B200", "B200"}, {"GB200", "GB200"},
		{"RTX 4090", "GeForce RTX 4090"}, {"NVIDIA GeForce RTX 4090", "GeForce RTX 4090"}, {"RTX 3090", "GeForce RTX 3090"},
		{"RTX 2080 Ti", "GeForce RTX 2080 Ti"}, {"RTX 5090", "GeForce RTX 5090"}, {"Jetson Orin", "Jetson AGX Orin"},
		{"A100 80GB PCIe", "A100 80GB PCIe"}, {"NVIDIA A100-SXM4-80GB", "A100-SXM4-80GB"}, {"A100-PCIE-40GB", "A100-SXM4-40GB"},
		{"sm_75", "Tesla T4"}, {"8.6", "A10"}, {"sm_90", "H100 SXM5 80GB"}, {"12.0", "GeForce RTX 5090"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := Resolve(tt.name)
			if !ok || s.Name != tt.want {
				got := "nothing"
				if ok {
					got = s.Name
				}
				t.Errorf("Resolve(%q): got %s, want %s", tt.name, got, tt.want)
			}
		})
	}
	for _, name := range []string{"", "H", "RTX", "X100", "sm_40"} {
		if s, ok := Resolve(name); ok {
			t.Errorf("Resolve(%q): got %s, want nothing", name, s.Name)
		}
	}
}

// TestTensorCores: tensor cores and their precisions are facts of the GPU,
// with the TF32-over-FFMA ratio only where NVIDIA publishes both peaks.
func TestTensorCores(t *testing.T) {
	for _, tt := range []struct {
		gpu       string
		any, tf32 bool
		ratio     float64
	}{
		{"Tesla P100-PCIE-16GB", false, false, 0}, {"Tesla V100-SXM2-16GB", true, false, 0}, {"Tesla T4", true, false, 0},
		{"A100-SXM4-40GB", true, true, 156 / 19.5}, {"A10G", true, true, 0}, {"L4", true, true, 0}, {"H100 SXM5 80GB", true, true, 494.7 / 66.9},
		{"B200", true, true, 494.7 / 66.9}, {"GeForce RTX 5090", true, true, 0},
	} {
		t.Run(tt.gpu, func(t *testing.T) {
			s, ok := Resolve(tt.gpu)
			if !ok {
				t.Fatalf("%s not in the table", tt.gpu)
			}
			tc := s.TensorCores()
			if tc.Any() != tt.any || tc.Has("tf32") != tt.tf32 || tc.TF32Ratio() != tt.ratio {
				t.Errorf("%s: got any %v, tf32 %v, ratio %v; want %v, %v, %v", tt.gpu, tc.Any(), tc.Has("tf32"), tc.TF32Ratio(), tt.any, tt.tf32, tt.ratio)
			}
		})
	}
}

// TestFromClues: a GPU the table does not list (here a board of cc 9.0
// with 100 SMs, which fits no entry) gets its peaks from the device
// attributes the export carries.
func TestFromClues(t *testing.T) {
	c := Clues{Name: "NVIDIA Hypothetical Board", CC: "9.0", SMs: 100, SMClockHz: 1980e6, MemClockHz: 2619e6, BusBits: 5120,
		L2Bytes: 52428800, MemoryBytes: 85017493504}
	id := Identify(c)
	if id.Source != SourceAttributes || id.Spec == nil {
		t.Fatalf("got %+v, want a spec from the attributes", id)
	}
	if got, want := id.Spec.PeakBandwidth(), 2619e6*5120/8*2; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("peak bandwidth %.4g, want %.4g", got, want)
	}
	if got, want := id.Spec.PeakFP32(), 100*128*1980e6*2.0; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("peak FP32 %.4g, want %.4g", got, want)
	}
	if id.Spec.Name != "Hypothetical Board" || id.Spec.MaxWarpsPerSM != 64 {
		t.Errorf("got %s with %d warps per SM", id.Spec.Name, id.Spec.MaxWarpsPerSM)
	}
	c.SMClockHz = 0
	if _, ok := fromClues(c); ok {
		t.Error("a spec without the SM clock")
	}
}

// CCs lists the compute capabilities byCC knows, in ascending order.
func CCs() []string {
	var out []string
	for _, r := range ccTable {
		if r.rep != "" {
			out = append(out, r.cc)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		ai, bi, _ := ParseCC(out[i])
		aj, bj, _ := ParseCC(out[j])
		return ai < aj || ai == aj && bi < bj
	})
	return out
}

// TestDatasheetFigures: the GPU table's figures against their sources.
// Every entry names its source; where the source states the FP32 peak,
// SMs × lanes × 2 × boost clock gives it within the source's rounding
// (2%), as the bandwidth test does for clock × bus × data rate.
func TestDatasheetFigures(t *testing.T) {
	known := map[string]bool{"SMs": true, "SM clock": true, "boost clock": true, "base clock": true, "bandwidth": true, "L2": true}
	withFP32 := 0
	for _, s := range Specs() {
		t.Run(s.Name, func(t *testing.T) {
			if strings.TrimSpace(s.Source) == "" {
				t.Errorf("no source")
			}
			for _, u := range s.Unverified {
				if !known[u] {
					t.Errorf("unverified figure %q is not a figure of the table", u)
				}
			}
			if s.DatasheetFP32TFLOPs > 0 {
				withFP32++
				if got := s.PeakFP32() / 1e12; !within(got, s.DatasheetFP32TFLOPs, 0.02) {
					t.Errorf("PeakFP32 %.2f TFLOP/s (%d SMs × %d lanes × 2 × %g MHz), source states %g",
						got, s.SMs, s.CoresPerSM, s.SMClockMHz, s.DatasheetFP32TFLOPs)
				}
			}
		})
	}
	if withFP32 < 40 {
		t.Errorf("%d entries state an FP32 peak, want at least 40", withFP32)
	}
}

// TestIssueGPUs: every GPU users run on, as they type it, is accepted by
// --device (Resolve) and model --arch (ResolveArch) and names a board of
// the right compute capability.
func TestIssueGPUs(t *testing.T) {
	for _, tt := range []struct{ name, cc string }{
		{"P100", "6.0"}, {"Tesla P100-PCIE-16GB", "6.0"}, {"V100", "7.0"}, {"V100 PCIe", "7.0"}, {"Tesla V100-PCIE-32GB", "7.0"},
		{"T4", "7.5"}, {"A10", "8.6"}, {"A10G", "8.6"}, {"A30", "8.0"}, {"A40", "8.6"},
		{"A100", "8.0"}, {"A100 40GB PCIe", "8.0"}, {"A100-PCIE-40GB", "8.0"}, {"A100 80GB PCIe", "8.0"}, {"A100-SXM4-40GB", "8.0"}, {"A100-SXM4-80GB", "8.0"},
		{"L4", "8.9"}, {"L40", "8.9"}, {"L40S", "8.9"},
		{"H100", "9.0"}, {"H100 PCIe", "9.0"}, {"H100 SXM", "9.0"}, {"H100 NVL", "9.0"}, {"H200", "9.0"}, {"H200 NVL", "9.0"},
		{"B200", "10.0"}, {"GB200", "10.0"},
		{"RTX 2060", "7.5"}, {"RTX 2060 SUPER", "7.5"}, {"RTX 2070", "7.5"}, {"RTX 2070 Super", "7.5"}, {"RTX 2080", "7.5"}, {"RTX 2080 SUPER", "7.5"}, {"RTX 2080 Ti", "7.5"},
		{"RTX 3060", "8.6"}, {"RTX 3060 Ti", "8.6"}, {"RTX 3070", "8.6"}, {"RTX 3070 Ti", "8.6"}, {"RTX 3080", "8.6"}, {"RTX 3080 Ti", "8.6"}, {"RTX 3090", "8.6"}, {"RTX 3090 Ti", "8.6"},
		{"RTX 4060", "8.9"}, {"RTX 4060 Ti", "8.9"}, {"RTX 4070", "8.9"}, {"RTX 4070 SUPER", "8.9"}, {"RTX 4070 Ti", "8.9"}, {"RTX 4070 Ti SUPER", "8.9"},
		{"RTX 4080", "8.9"}, {"RTX 4080 SUPER", "8.9"}, {"RTX 4090", "8.9"}, {"4090", "8.9"}, {"NVIDIA GeForce RTX 4070 Ti SUPER", "8.9"},
		{"RTX 5060", "12.0"}, {"RTX 5060 Ti", "12.0"}, {"RTX 5070", "12.0"}, {"RTX 5070 Ti", "12.0"}, {"RTX 5080", "12.0"}, {"RTX 5090", "12.0"},
		{"Jetson Orin", "8.7"}, {"Jetson AGX Orin", "8.7"}, {"Jetson AGX Orin 32GB", "8.7"}, {"Jetson Orin NX", "8.7"}, {"Jetson Orin Nano", "8.7"},
		{"Jetson Orin Nano 4GB", "8.7"}, {"Jetson Orin Nano Super", "8.7"}, {"Orin", "8.7"},
		{"sm_60", "6.0"}, {"7.0", "7.0"}, {"sm_75", "7.5"}, {"8.0", "8.0"}, {"sm_86", "8.6"}, {"8.7", "8.7"}, {"sm_89", "8.9"},
		{"9.0", "9.0"}, {"sm_100", "10.0"}, {"12.0", "12.0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, ok := Resolve(tt.name)
			if !ok {
				t.Fatalf("--device %q: unknown", tt.name)
			}
			if s.CC != tt.cc {
				t.Errorf("--device %q: %s of cc %s, want cc %s", tt.name, s.Name, s.CC, tt.cc)
			}
			if cc, err := ResolveArch(tt.name); err != nil || cc != tt.cc {
				t.Errorf("model --arch %q: got %q, %v, want %s", tt.name, cc, err, tt.cc)
			}
		})
	}
	// The short names of one board pick it, not a larger board whose name contains them.
	for name, want := range map[string]string{"RTX 4070": "GeForce RTX 4070", "4070": "GeForce RTX 4070", "RTX 3080": "GeForce RTX 3080",
		"RTX 2080": "GeForce RTX 2080", "5070": "GeForce RTX 5070", "Jetson Orin Nano": "Jetson Orin Nano 8GB"} {
		if s, ok := Resolve(name); !ok || s.Name != want {
			t.Errorf("Resolve(%q): got %v, want %s", name, s, want)
		}
	}
}

// TestRulesOf: the memory model's rules are facts of each compute
// capability, and a compute capability between the table's entries
// follows the one before it.
func TestRulesOf(t *testing.T) {
	for _, tt := range []struct {
		cc, key       string
		coalescing    Coalescing
		l1, l1Default bool
		banks         int
		tensor, tf32  bool
	}{
		{"1.0", "1.0", CoalesceHalfWarpStrict, false, false, 16, false, false},
		{"1.1", "1.1", CoalesceHalfWarpStrict, false, false, 16, false, false},
		{"1.2", "1.2", CoalesceHalfWarpSegments, false, false, 16, false, false},
		{"2.0", "2.0", CoalesceLines, true, true, 32, false, false},
		{"2.1", "2.0", CoalesceLines, true, true, 32, false, false},
		{"3.5", "3.5", CoalesceLines, true, false, 32, false, false},
		{"5.0", "3.7", CoalesceLines, true, false, 32, false, false},
		{"6.2", "6.1", CoalesceLines, true, false, 32, false, false},
		{"7.0", "7.0", CoalesceSectored, true, true, 32, true, false},
		{"7.2", "7.2", CoalesceSectored, true, true, 32, true, false},
		{"8.0", "8.0", CoalesceSectored, true, true, 32, true, true},
		{"10.3", "10.0", CoalesceSectored, true, true, 32, true, true},
		{"11.0", "10.0", CoalesceSectored, true, true, 32, true, true},
		{"sm_121", "12.0", CoalesceSectored, true, true, 32, true, true},
	} {
		t.Run(tt.cc, func(t *testing.T) {
			r, err := RulesOf(tt.cc)
			if err != nil {
				t.Fatal(err)
			}
			if r.CC != tt.key || r.Coalescing != tt.coalescing || r.GlobalL1 != tt.l1 || r.GlobalL1Default != tt.l1Default ||
				r.SharedBanks != tt.banks || r.Tensor.Any() != tt.tensor || r.Tensor.Has("tf32") != tt.tf32 {
				t.Errorf("got %+v", r)
			}
		})
	}
	for _, cc := range []string{"4.0", "x", "0.9"} {
		if r, err := RulesOf(cc); err == nil {
			t.Errorf("RulesOf(%q): got %+v, want an error", cc, r)
		}
	}
	for _, s := range Specs() {
		if want, _ := RulesOf(s.CC); s.Rules.CC != s.CC || s.Rules.Coalescing != want.Coalescing || s.Rules.SharedBanks != s.SharedBanks {
			t.Errorf("%s: rules %+v, want those of cc %s", s.Name, s.Rules, s.CC)
		}
	}
}
