// Package analysis puts the pieces together for one kernel: it resolves the
// GPU, derives the canonical metrics, cross-checks the memory accesses with
// the analytic model and runs the rules. Commands that show, store or gate
// kernels all go through Analyze, so they agree.
package analysis

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/gpumodel"
	"github.com/profan-dev/profan/metrics"
)

// Options select what Analyze does.
type Options struct {
	Rules Ruler // nil: no findings
	// Device names the GPU when the export does not (ncu's details page
	// gives only a device index and the compute capability).
	Device *gpumodel.Spec
}

// Ruler runs rules over an analysed kernel; the rules package implements it.
type Ruler interface {
	Check(k *Kernel) (findings []profan.Finding, skipped []string)
}

// Kernel is the analysis of one kernel record.
type Kernel struct {
	Run  *profan.Run
	K    *profan.Kernel
	Spec *gpumodel.Spec // nil when the GPU is unknown
	// GPU is how Spec was identified: from --device, the printed name,
	// the device attributes or the compute capability (assumed).
	GPU      gpumodel.Identity
	Metrics  *metrics.Set
	Model    Model
	Findings []profan.Finding
	Skipped  []string // rules skipped, with the reason
}

// Model is the memory model's reading of the kernel's accesses.
type Model struct {
	GlobalLoad  *Access `json:"global_load,omitempty"`
	GlobalStore *Access `json:"global_store,omitempty"`
	Shared      *Access `json:"shared,omitempty"`
	// Instructions holds the per-instruction reading when the export has
	// ncu's source page: each global or shared access with its measured
	// and ideal sectors, worst first.
	Instructions []Instruction `json:"instructions,omitempty"`
}

// Instruction is the model's reading of one SASS memory instruction.
type Instruction struct {
	File                   string  `json:"file,omitempty"`
	Line                   int     `json:"line,omitempty"`
	Address                string  `json:"address,omitempty"`
	SASS                   string  `json:"sass"`
	Space                  string  `json:"space"`     // global or shared
	Operation              string  `json:"operation"` // load or store
	AccessBytes            float64 `json:"access_bytes,omitempty"`
	Requests               float64 `json:"requests"`
	Sectors                float64 `json:"sectors"`
	IdealSectors           float64 `json:"ideal_sectors"`
	SectorsPerRequest      float64 `json:"sectors_per_request"`
	IdealSectorsPerRequest float64 `json:"ideal_sectors_per_request"`
	Pattern                string  `json:"pattern"`
	StrideBytes            float64 `json:"stride_bytes,omitempty"`
	OffsetBytes            float64 `json:"offset_bytes,omitempty"`
	Explanation            string  `json:"explanation"`
}

// Access is the cross-check of one memory space.
type Access struct {
	Requests               float64  `json:"requests"`
	Transactions           float64  `json:"transactions"`
	IdealTransactions      float64  `json:"ideal_transactions"`
	SectorsPerRequest      float64  `json:"sectors_per_request"`
	IdealSectorsPerRequest float64  `json:"ideal_sectors_per_request"`
	AccessBytes            float64  `json:"access_bytes,omitempty"`
	Pattern                string   `json:"pattern"`
	StrideBytes            float64  `json:"stride_bytes,omitempty"`
	OffsetBytes            float64  `json:"offset_bytes,omitempty"`
	ConflictWays           float64  `json:"conflict_ways,omitempty"`
	Explanation            string   `json:"explanation"`
	Implausible            []string `json:"implausible,omitempty"`
}

// Device identifies the GPU of k from every clue the export gives (see
// gpumodel.Identify). Every kernel of one capture carries the same device
// attributes, so the kernels of a run get one GPU and one peak.
func Device(k *profan.Kernel) gpumodel.Identity {
	return gpumodel.Identify(Clues(k))
}

// Clues collects what k's export says about its GPU: the printed name
// (raw pages: device__attribute_display_name), ncu's DRAM frequency
// (details: "DRAM Frequency"; raw: dram__cycles_elapsed.avg.per_second,
// else the memory clock attribute), the SM count, L2 size, memory size and
// bus width attributes.
func Clues(k *profan.Kernel) gpumodel.Clues {
	c := gpumodel.Clues{Name: k.Device, CC: k.CC}
	if c.Name == "" {
		if m, ok := k.Metric("device__attribute_display_name"); ok && m.Text != "" {
			c.Name = m.Text
		}
	}
	if v, ok := k.Value("DRAM Frequency", "dram__cycles_elapsed.avg.per_second", "DRAM Frequency (dram__cycles_elapsed.avg.per_second)"); ok && v > 0 {
		c.DRAMClockHz = v
	} else if v, ok := k.Value("device__attribute_memory_clock_rate", "device__attribute_max_mem_frequency_khz"); ok && v > 0 {
		c.DRAMClockHz = v * 1e3 // kHz
	}
	if v, ok := k.Value("device__attribute_multiprocessor_count", "# SMs", "launch__sm_count", "# SMs (launch__sm_count)"); ok && v > 0 {
		c.SMs = int(math.Round(v))
	}
	if v, ok := k.Value("device__attribute_l2_cache_size"); ok && v > 0 {
		c.L2Bytes = v
	}
	if v, ok := k.Value("device__attribute_total_memory"); ok && v > 0 {
		c.MemoryBytes = v
	}
	if v, ok := k.Value("device__attribute_global_memory_bus_width", "device__attribute_fb_bus_width"); ok && v > 0 {
		c.BusBits = int(math.Round(v))
	}
	if c.CC == "" {
		ma, ok1 := k.Value("device__attribute_compute_capability_major")
		mi, ok2 := k.Value("device__attribute_compute_capability_minor")
		if ok1 && ok2 {
			c.CC = fmt.Sprintf("%.0f.%.0f", ma, mi)
		}
	}
	return c
}

// MetricsDevice converts a GPU spec to what metrics needs.
func MetricsDevice(s *gpumodel.Spec) metrics.Device {
	if s == nil {
		return metrics.Device{}
	}
	return metrics.Device{
		Name: s.Name, SMs: s.SMs, PeakBandwidth: s.PeakBandwidth(),
		PeakFP32: s.PeakFP32(), PeakFP64: s.PeakFP64(), PeakInst: 32 * s.PeakWarpInstructions(),
	}
}

// Analyze analyses one kernel of run.
func Analyze(run *profan.Run, k *profan.Kernel, opt Options) *Kernel {
	a := &Kernel{Run: run, K: k}
	a.GPU = Device(k)
	if opt.Device != nil && a.GPU.Source != gpumodel.SourceName {
		// The flag names the GPU when the export does not; a printed name
		// the table knows is the better evidence.
		a.GPU = gpumodel.Identity{Spec: opt.Device, Source: gpumodel.SourceFlag}
	}
	a.Spec = a.GPU.Spec
	a.Metrics = metrics.Derive(k, MetricsDevice(a.Spec))
	a.Model = crossCheck(a)
	if opt.Rules != nil {
		a.Findings, a.Skipped = opt.Rules.Check(a)
	}
	return a
}

// Value returns a canonical metric of the kernel.
func (a *Kernel) Value(name string) (float64, bool) { return a.Metrics.Get(name) }

// crossCheck explains each memory space's measured transactions per
// request with the analytic model.
func crossCheck(a *Kernel) Model {
	var m Model
	m.GlobalLoad = globalAccess(a, "global_load_requests", "gld")
	m.GlobalStore = globalAccess(a, "global_store_requests", "gst")
	m.Shared = sharedAccess(a)
	m.Instructions = instructions(a)
	return m
}

// instructions reads the source page's per-instruction counters: ncu's
// theoretical L2 sectors (global) or L1 wavefronts (shared), actual and
// ideal, over the warp-level instructions executed.
func instructions(a *Kernel) []Instruction {
	var out []Instruction
	for _, s := range a.K.Source {
		if s.Address == "" {
			continue
		}
		c := map[string]float64{}
		var space, op string
		for _, m := range s.Counter {
			switch m.Name {
			case "address_space":
				space = strings.ToLower(m.Text)
			case "access_operation":
				op = strings.ToLower(m.Text)
			default:
				c[m.Name] = m.Value
			}
		}
		req := c["inst_executed"]
		if req <= 0 || (space != "global" && space != "shared") || (op != "load" && op != "store") {
			continue
		}
		in := Instruction{File: s.File, Line: s.Line, Address: s.Address, SASS: s.SASS, Space: space, Operation: op,
			AccessBytes: c["access_size_bits"] / 8, Requests: req}
		if space == "global" {
			in.Sectors, in.IdealSectors = c["memory_l2_theoretical_sectors_global"], c["memory_l2_theoretical_sectors_global_ideal"]
		} else {
			in.Sectors, in.IdealSectors = c["memory_l1_wavefronts_shared"], c["memory_l1_wavefronts_shared_ideal"]
		}
		if in.Sectors <= 0 {
			continue
		}
		in.SectorsPerRequest = in.Sectors / req
		in.IdealSectorsPerRequest = in.IdealSectors / req
		elem := in.AccessBytes
		if elem <= 0 {
			elem = 4
		}
		threads := c["thread_inst_executed_pred_on"] / req
		if space == "global" {
			// ncu's ideal counts the distinct bytes requested: far below
			// threads × size / 32 means the threads share addresses.
			noShare := threads * elem / 32
			if (in.IdealSectorsPerRequest < 0.9 || (threads > 0 && in.IdealSectorsPerRequest < 0.5*noShare)) && in.SectorsPerRequest <= 1.5 {
				in.Pattern = "uniform"
				in.Explanation = "the threads of a warp read the same address (broadcast)"
			} else {
				x := gpumodel.Explain(elem, in.SectorsPerRequest, in.IdealSectorsPerRequest)
				in.Pattern, in.StrideBytes, in.OffsetBytes, in.Explanation = x.Pattern, x.StrideBytes, x.OffsetBytes, x.Text
				lines := c["l1_tag_requests_global"] / req
				explained := false
				if x.Pattern == "scattered" && lines > 0 && threads > 0 {
					explained = true
					// One sector per thread. The 128-byte lines tell a
					// stride from scatter: a stride of s bytes touches
					// threads·s/128 lines, every thread its own line from
					// 128 B on; random addresses share a line now and then.
					switch {
					case lines < 0.9*threads:
						in.Pattern, in.StrideBytes = "strided", math.Round(128*lines/threads)
						in.Explanation = fmt.Sprintf("%.1f sectors in %.1f lines per request for %.1f threads: a stride of %.0f B", in.SectorsPerRequest, lines, threads, in.StrideBytes)
					case lines >= 0.99*threads:
						in.Pattern, in.StrideBytes = "strided", 0
						in.Explanation = fmt.Sprintf("every thread of the warp in its own 128-byte line (%.1f lines for %.1f threads): a stride of 128 B or more, as a column of a row-major array", lines, threads)
					default:
						in.StrideBytes = 0
						in.Explanation = fmt.Sprintf("%.1f lines for %.1f threads per request: random addresses, a few sharing a line", lines, threads)
					}
				}
				if !explained && x.Pattern == "scattered" && launch2D(a.K) {
					in.Pattern, in.StrideBytes = "strided", 0
					in.Explanation += "; with a 2-D launch this is a column access (stride of a whole row)"
				}
			}
		} else {
			ways := 1.0
			if in.IdealSectors > 0 {
				ways = in.Sectors / in.IdealSectors
			}
			if ways < 1.5 {
				in.Pattern, in.Explanation = "coalesced", "no bank conflicts"
			} else {
				in.Pattern = "strided"
				in.StrideBytes = 4 * math.Round(ways)
				in.Explanation = fmt.Sprintf("%.1f× the ideal wavefronts: a %.0f-way bank conflict", ways, math.Round(ways))
			}
		}
		out = append(out, in)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return out[i].Sectors-out[i].IdealSectors > out[j].Sectors-out[j].IdealSectors
	})
	return out
}

func globalAccess(a *Kernel, reqName, op string) *Access {
	req, ok1 := a.Value(reqName)
	tr, ok2 := a.Value(op + "_transactions")
	spr, ok3 := a.Value(op + "_transactions_per_request")
	if !ok3 && ok1 && ok2 && req > 0 {
		spr, ok3 = tr/req, true
	}
	if !ok3 || (ok1 && req == 0) || spr == 0 {
		return nil // no accesses of this kind
	}
	acc := &Access{Requests: nan0(req, ok1), Transactions: nan0(tr, ok2), SectorsPerRequest: spr}
	elem, haveElem := a.Value(op + "_access_bytes")
	ideal, haveIdeal := a.Value(op + "_ideal_transactions")
	effPct, haveEff := a.Value(op + "_efficiency")
	switch {
	case haveEff && effPct > 0:
		// Efficiency is requested bytes over moved bytes, so the ideal is
		// that share of the measured sectors per request, whatever a
		// "request" counts on this architecture (nvprof on Maxwell and
		// Pascal counts them differently from ncu).
		acc.IdealSectorsPerRequest = spr * effPct / 100
		if ok2 {
			acc.IdealTransactions = math.Round(tr * effPct / 100)
		}
	case haveIdeal && ok1 && req > 0:
		acc.IdealTransactions = ideal
		acc.IdealSectorsPerRequest = ideal / req
	case haveElem:
		acc.IdealSectorsPerRequest = math.Max(1, elem)
	default:
		// Without the requested bytes, assume 4-byte words: the commonest
		// access and the one the seeds' tables use.
		elem = 4
		acc.IdealSectorsPerRequest = 4
	}
	// From Volta on, a full warp's ideal sectors per request equal its
	// access size in bytes (32 threads × S bytes / 32-byte sectors).
	volta := ccAtLeast(a.K.CC, 7) || (a.K.CC == "" && a.Spec != nil && ccAtLeast(a.Spec.CC, 7))
	if !haveElem && (haveEff || haveIdeal) {
		elem, haveElem = acc.IdealSectorsPerRequest, true
	}
	if haveElem && volta {
		acc.AccessBytes = math.Round(elem*100) / 100
	}
	switch {
	case acc.IdealSectorsPerRequest >= 0.9 && acc.SectorsPerRequest <= acc.IdealSectorsPerRequest*1.1:
		acc.Pattern = "coalesced"
		acc.Explanation = fmt.Sprintf("%.2f sectors per request, ideal %.2f: coalesced", acc.SectorsPerRequest, acc.IdealSectorsPerRequest)
	case acc.IdealSectorsPerRequest < 0.9 && acc.SectorsPerRequest <= 1.5:
		// Less than a sector of distinct bytes per request: the threads
		// share addresses.
		acc.Pattern = "uniform"
		acc.Explanation = fmt.Sprintf("%.2f sectors per request for %.2f sectors of distinct bytes: the threads of a warp read the same address (broadcast)", acc.SectorsPerRequest, acc.IdealSectorsPerRequest)
	case haveElem && !isPow2(elem) && math.Abs(acc.SectorsPerRequest-acc.IdealSectorsPerRequest) > 0.05*acc.IdealSectorsPerRequest:
		acc.Pattern, acc.AccessBytes = "mixed", 0
		acc.Explanation = fmt.Sprintf("%.2f sectors per request, ideal %.2f: instructions of different widths or patterns share this memory space; the source page tells them apart", acc.SectorsPerRequest, acc.IdealSectorsPerRequest)
	default:
		e := math.Round(elem)
		x := gpumodel.Explain(e, acc.SectorsPerRequest, acc.IdealSectorsPerRequest)
		acc.Pattern, acc.StrideBytes, acc.OffsetBytes, acc.Explanation = x.Pattern, x.StrideBytes, x.OffsetBytes, x.Text
		if x.Pattern == "scattered" && launch2D(a.K) {
			// One sector per thread cannot tell a large stride from
			// scatter. A 2-D launch indexes 2-D data: a column access.
			acc.Pattern, acc.StrideBytes = "strided", 0
			acc.Explanation += "; with a 2-D launch this is a column access (stride of a whole row)"
		}
	}
	e := elem
	if e <= 0 || math.IsNaN(e) {
		e = 4
	}
	acc.Implausible = gpumodel.Plausible(e, acc.SectorsPerRequest, acc.IdealSectorsPerRequest, eff(a, op))
	return acc
}

func eff(a *Kernel, op string) float64 {
	v, ok := a.Value(op + "_efficiency")
	if !ok {
		return math.NaN()
	}
	return v
}

func sharedAccess(a *Kernel) *Access {
	ld, okl := a.Value("shared_load_transactions_per_request")
	st, oks := a.Value("shared_store_transactions_per_request")
	if !okl && !oks {
		return nil
	}
	worst := math.Max(nan0(ld, okl), nan0(st, oks))
	if worst == 0 {
		return nil // no shared-memory accesses
	}
	lr, _ := a.Value("shared_load_requests")
	sr, _ := a.Value("shared_store_requests")
	lt, _ := a.Value("shared_load_transactions")
	stt, _ := a.Value("shared_store_transactions")
	acc := &Access{Requests: nz(lr) + nz(sr), Transactions: nz(lt) + nz(stt), SectorsPerRequest: worst, IdealSectorsPerRequest: 1}
	if acc.Requests > 0 {
		acc.SectorsPerRequest = acc.Transactions / acc.Requests
	}
	acc.IdealTransactions = acc.Requests
	acc.ConflictWays = math.Round(worst*100) / 100
	switch {
	case worst < 1.5:
		acc.Pattern = "coalesced"
		acc.Explanation = fmt.Sprintf("%.2f wavefronts per shared-memory instruction: no bank conflicts to speak of", worst)
	default:
		ways := math.Round(worst)
		acc.Pattern = "strided"
		acc.StrideBytes = 4 * ways
		acc.Explanation = fmt.Sprintf("%.1f wavefronts per shared-memory instruction: a %.0f-way bank conflict, as a warp reading 4-byte words %.0f B apart (a column of a [32][32] tile is 32-way)", worst, ways, 4*ways)
	}
	return acc
}

// isPow2 reports whether an access size is 1, 2, 4, 8 or 16 bytes, within
// the rounding of counter ratios.
func isPow2(v float64) bool {
	for _, p := range []float64{1, 2, 4, 8, 16} {
		if math.Abs(v-p) <= 0.05*p {
			return true
		}
	}
	return false
}

// launch2D reports whether k was launched over two or three dimensions:
// then one sector per thread reads as a column of 2-D data (a stride of a
// whole row) rather than scatter, which the counters alone cannot tell.
func launch2D(k *profan.Kernel) bool {
	return k.Block[1] > 1 || k.Grid[1] > 1 || k.Block[2] > 1 || k.Grid[2] > 1
}

// ccAtLeast reports whether compute capability cc is major or newer.
func ccAtLeast(cc string, major int) bool {
	m, _, err := gpumodel.ParseCC(cc)
	return err == nil && m >= major
}

func nan0(v float64, ok bool) float64 {
	if !ok || math.IsNaN(v) {
		return 0
	}
	return v
}

func nz(v float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return v
}
