// Package analysis is where a verdict is made, once, from the best
// evidence: for each kernel it identifies the GPU (a typed source), derives
// the canonical metrics, reads one typed access pattern per memory space
// (the source page's per-instruction counters first, then the raw
// counters, then the model), decides the one limiter, and runs the rules;
// for a capture (AnalyzeRun, Stream) it adds the run-level findings and
// the groups of launches. analyze, gate, report and ingest all render or
// store these verdicts and never derive their own.
package analysis

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/metrics"
)

// Options select what Analyze does.
type Options struct {
	Rules Ruler // nil: no findings
	// Device names the GPU when the export does not (ncu's details page
	// gives only a device index and the compute capability).
	Device *gpumodel.Spec
	// DeviceForce keeps Device where the export contradicts it (see
	// CheckDevice).
	DeviceForce bool
	// Bound is the speed-of-light percentage under which no unit limits
	// the kernel (latency-bound); 0 means 60, as ncu's own rule.
	Bound float64
}

// Ruler runs the selected rules over an analysed kernel or a whole run,
// applying suppressions; the rules package implements it.
type Ruler interface {
	Check(k *Kernel) Result
	CheckRun(run *profan.Run) Result
}

// efficiencies adds gld_efficiency and gst_efficiency where the export
// lacks them and the access model measured the accesses' sectors and
// their ideal (ncu's source page: per instruction): ideal over moved
// sectors, as nvprof defines them, so that a gate's condition on them
// reads what analyze states.
func efficiencies(s *metrics.Set, m Model) *metrics.Set {
	for _, x := range []struct {
		name string
		acc  *Access
	}{{"gld_efficiency", m.GlobalLoad}, {"gst_efficiency", m.GlobalStore}} {
		if _, ok := s.Get(x.name); ok || x.acc == nil || !(x.acc.Transactions > 0) || !(x.acc.IdealTransactions > 0) {
			continue
		}
		s = s.With(x.name, 100*math.Min(1, x.acc.IdealTransactions/x.acc.Transactions))
		if i, ok := s.Index(x.name); ok {
			s.Values[i].From = "ideal sectors / sectors of the access model (source page)"
		}
	}
	return s
}

// deviceOf identifies the GPU of k from every clue the export gives (see
// gpumodel.Identify). Every kernel of one capture carries the same device
// attributes, so the kernels of a run get one GPU and one peak.
func deviceOf(k *profan.Kernel) gpumodel.Identity {
	c := Clues(k)
	lastDevice.Lock()
	id, hit := lastDevice.ids[c]
	lastDevice.Unlock()
	if !hit {
		id = gpumodel.Identify(c)
		lastDevice.Lock()
		if lastDevice.ids == nil || len(lastDevice.ids) >= maxDevices {
			lastDevice.ids = make(map[gpumodel.Clues]gpumodel.Identity)
		}
		lastDevice.ids[c] = id
		lastDevice.Unlock()
	}
	// Each verdict has slices of its own.
	id.Evidence, id.Others = slices.Clone(id.Evidence), slices.Clone(id.Others)
	return id
}

// lastDevice holds the identifications deviceOf made, by their clues:
// the kernels of an export give the same clues, which gpumodel.Identify
// would match with every GPU of its table again (an ncu page of 4,680
// launches spent 5% of its ingest there). Not the last one only: an ncu
// page's launches give their own SM and DRAM clocks, which repeat from
// one capture of a kernel to the next but not from launch to launch.
var lastDevice struct {
	sync.Mutex
	ids map[gpumodel.Clues]gpumodel.Identity
}

// maxDevices bounds lastDevice: when full it starts afresh.
const maxDevices = 256

// Clues collects what k's export says about its GPU: the printed name
// (raw pages: device__attribute_display_name), ncu's DRAM frequency
// (details: "DRAM Frequency"; raw: dram__cycles_elapsed.avg.per_second,
// else the memory clock attribute), the SM count, L2 size, memory size and
// bus width attributes.
func Clues(k *profan.Kernel) gpumodel.Clues {
	c := gpumodel.Clues{Name: k.Device, CC: k.CC}
	if c.Name == "" {
		c.Name = metrics.DeviceName(k)
	}
	for _, a := range []struct {
		name string
		to   *float64
	}{{"device_dram_clock", &c.DRAMClockHz}, {"device_memory_clock", &c.MemClockHz}, {"device_sm_clock", &c.SMClockHz},
		{"device_l2_size", &c.L2Bytes}, {"device_memory_size", &c.MemoryBytes}} {
		if v, ok := metrics.Read(k, a.name); ok && v > 0 {
			*a.to = v
		}
	}
	for _, a := range []struct {
		name string
		to   *int
	}{{"device_sms", &c.SMs}, {"device_bus_width", &c.BusBits}} {
		if v, ok := metrics.Read(k, a.name); ok && v > 0 {
			*a.to = int(math.Round(v))
		}
	}
	if c.CC == "" {
		ma, ok1 := metrics.Read(k, "device_cc_major")
		mi, ok2 := metrics.Read(k, "device_cc_minor")
		if ok1 && ok2 {
			c.CC = fmt.Sprintf("%.0f.%.0f", ma, mi)
		}
	}
	return c
}

// metricsDevice converts a GPU spec to what metrics needs.
func metricsDevice(s *gpumodel.Spec) metrics.Device {
	if s == nil {
		return metrics.Device{}
	}
	return metrics.Device{
		Name: s.Name, SMs: s.SMs, PeakBandwidth: s.PeakBandwidth(),
		PeakFP32: s.PeakFP32(), PeakFP64: s.PeakFP64(), PeakInst: 32 * s.PeakWarpInstructions(),
	}
}

// cudaLines reports whether k's source page gives it lines of a CUDA
// source file (not a Triton kernel's .py).
func cudaLines(k *profan.Kernel) bool {
	for _, s := range k.Source {
		if s.Line > 0 && s.File != "" && !strings.HasSuffix(s.File, ".py") {
			return true
		}
	}
	return false
}

// read reads what k's counters say before any judgment: the name's
// family, the GPU, the canonical metrics.
func read(run *profan.Run, k *profan.Kernel, opt Options) *Kernel {
	a := &Kernel{Run: run, Record: k, Name: classify(k.DisplayName())}
	// Where the name is silent, the tensor pipe's activity says whether
	// the kernel's math ran on tensor cores.
	if v, ok := metrics.Read(k, "tensor_pipe_pct"); ok {
		a.Name = a.Name.WithTensorPipe(v)
	}
	a.Name = a.Name.WithSourceLines(cudaLines(k))
	a.GPU = deviceOf(k)
	if opt.Device != nil && a.GPU.Source != gpumodel.SourceName {
		// The flag names the GPU when the export does not; a printed name
		// the table knows is the better evidence.
		a.GPU = gpumodel.Identity{Spec: opt.Device, Source: gpumodel.SourceFlag}
	}
	a.Spec = a.GPU.Spec
	a.Metrics = metrics.Derive(k, metricsDevice(a.Spec))
	return a
}

// Analyze analyses one kernel of run.
func Analyze(run *profan.Run, k *profan.Kernel, opt Options) *Kernel {
	a := read(run, k, opt)
	defer judging(a)()
	a.Model = crossCheck(a)
	a.Metrics = efficiencies(a.Metrics, a.Model)
	bound := opt.Bound
	if bound <= 0 {
		bound = 60
	}
	a.Limiter = limiterOf(a, bound)
	a.Limiter.Headroom = headroomOf(a)
	if opt.Rules != nil {
		r := opt.Rules.Check(a)
		a.Findings, a.Suppressed, a.Skipped, a.Missing = r.Findings, r.Suppressed, r.Skipped, r.Missing
		if h := &a.Limiter.Headroom; h.Known() && r.Gain > 0 {
			h.Explained = math.Min(h.Share, r.Gain)
		}
	}
	return a
}
