package metrics

import (
	"math"
	"strings"

	"github.com/profan-dev/profan"
)

// evidence are the counters and device attributes the analysis weighs
// beside the canonical metrics but never derives into a kernel's Set, so
// they are neither stored nor printed: each is defined once, here, with its
// sources, and read through Read.
var evidence = []*Def{
	firstOf("tensor_pipe_pct", "%", "cycles the tensor pipe was active, % of its peak sustained rate", 1,
		"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"),
	{Name: "l2_atomic_sectors", Unit: "sector",
		Doc: "sectors the L2 processed for global reductions and atomics; absent when neither counter is above 0",
		NCU: "lts__t_sectors_srcunit_tex_op_red.sum + lts__t_sectors_srcunit_tex_op_atom.sum", Nvprof: "—",
		eval: positiveSum("lts__t_sectors_srcunit_tex_op_red.sum", "lts__t_sectors_srcunit_tex_op_atom.sum")},
	firstOf("shared_atomic_wavefronts", "", "wavefronts the L1/shared pipe processed for shared-memory atomics", 1,
		"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"),

	// The GPU's attributes, which identify it (see analysis.Clues).
	{Name: "device_dram_clock", Unit: "Hz",
		Doc: "the DRAM frequency ncu measured, else the memory clock attribute",
		NCU: "DRAM Frequency, dram__cycles_elapsed.avg.per_second, device__attribute_memory_clock_rate (kHz), device__attribute_max_mem_frequency_khz", Nvprof: "—",
		eval: func(e *env) (float64, string, bool) {
			if v, n, ok := exact(1, "DRAM Frequency", "dram__cycles_elapsed.avg.per_second", "DRAM Frequency (dram__cycles_elapsed.avg.per_second)")(e); ok && v > 0 {
				return v, n, true
			}
			return exact(1e3, "device__attribute_memory_clock_rate", "device__attribute_max_mem_frequency_khz")(e)
		}},
	firstOf("device_memory_clock", "Hz", "the memory clock attribute (kHz)", 1e3, "device__attribute_memory_clock_rate"),
	firstOf("device_sm_clock", "Hz", "the SM clock attribute (kHz)", 1e3, "device__attribute_clock_rate"),
	firstOf("device_sms", "", "the SM count", 1, "device__attribute_multiprocessor_count", "# SMs", "launch__sm_count", "# SMs (launch__sm_count)"),
	firstOf("device_l2_size", "B", "the L2 size attribute", 1, "device__attribute_l2_cache_size"),
	firstOf("device_memory_size", "B", "the device memory attribute", 1, "device__attribute_total_memory"),
	firstOf("device_bus_width", "bit", "the memory bus width attribute", 1, "device__attribute_global_memory_bus_width", "device__attribute_fb_bus_width"),
	firstOf("device_cc_major", "", "the compute capability's major number", 1, "device__attribute_compute_capability_major"),
	firstOf("device_cc_minor", "", "the compute capability's minor number", 1, "device__attribute_compute_capability_minor"),
}

// Read returns the evidence name of k (see evidence); false when k's
// export lacks it. It panics on a name evidence does not define, a bug.
func Read(k *profan.Kernel, name string) (float64, bool) {
	for _, d := range evidence {
		if d.Name == name {
			v, _, ok := d.eval(&env{k: k})
			return v, ok && !math.IsNaN(v)
		}
	}
	panic("metrics.Read: no evidence named " + name)
}

// DeviceName returns the device name the export printed in its attributes
// (raw pages: device__attribute_display_name), "" when it printed none.
func DeviceName(k *profan.Kernel) string {
	if m, ok := k.Metric("device__attribute_display_name"); ok {
		return m.Text
	}
	return ""
}

// firstOf defines evidence read from the first of names the export has,
// times f: a counter or a device attribute only ncu prints.
func firstOf(name, unit, doc string, f float64, names ...string) *Def {
	return &Def{Name: name, Unit: unit, Doc: doc, NCU: strings.Join(names, ", "), Nvprof: "—", eval: exact(f, names...)}
}

// exact reads the first of names the kernel has with a number, by its
// name only (no display-name aliases), times f.
func exact(f float64, names ...string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		for _, n := range names {
			if m, ok := e.k.Metric(n); ok && m.IsNumber() {
				return m.Value * f, n, true
			}
		}
		return math.NaN(), "", false
	}
}

// positiveSum adds those of names above 0; false when none is.
func positiveSum(names ...string) func(e *env) (float64, string, bool) {
	return func(e *env) (float64, string, bool) {
		sum, found := 0.0, false
		for _, n := range names {
			if m, ok := e.k.Metric(n); ok && m.IsNumber() && m.Value > 0 {
				sum += m.Value
				found = true
			}
		}
		if !found {
			return math.NaN(), "", false
		}
		return sum, strings.Join(names, " + "), true
	}
}

// BusiestPipe finds the SM pipe with the highest utilization among ncu's
// raw per-pipe counters: the instructions each pipe executed
// (sm__inst_executed_pipe_*) and the cycles each was active
// (sm__pipe_*_cycles_active), tensor pipes included (tensor_op_hmma,
// tensor_op_gmma, ... all read as TENSOR). Sub-counters of one pipe
// (fma_type_fp16, cbu_pred_on_any) and the shared FP16/tensor pipe, which
// mirrors the tensor pipe, are skipped.
func BusiestPipe(k *profan.Kernel) (string, float64, bool) {
	const inst, cyc, suf = "sm__inst_executed_pipe_", "sm__pipe_", ".avg.pct_of_peak_sustained_active"
	best, bestPct := "", -1.0
	for _, m := range k.Metrics {
		if !strings.HasSuffix(m.Name, suf) || math.IsNaN(m.Value) {
			continue
		}
		var name string
		switch {
		case strings.HasPrefix(m.Name, inst):
			name = strings.TrimSuffix(strings.TrimPrefix(m.Name, inst), suf)
		case strings.HasPrefix(m.Name, cyc) && strings.HasSuffix(m.Name, "_cycles_active"+suf):
			name = strings.TrimSuffix(strings.TrimPrefix(m.Name, cyc), "_cycles_active"+suf)
			if name == "shared" {
				continue
			}
		default:
			continue
		}
		if strings.HasPrefix(name, "tensor") {
			name = "tensor"
		} else if strings.Contains(name, "_") {
			continue
		}
		if m.Value > bestPct {
			best, bestPct = name, m.Value
		}
	}
	if best == "" {
		return "", 0, false
	}
	return strings.ToUpper(best), bestPct, true
}

// TensorType reads the operand type of most of a kernel's tensor-core
// operations from ncu's per-type counters (sm__ops_path_tensor_src_T[_dst_U].sum):
// T, and its share of them; "" when the kernel ran none.
func TensorType(k *profan.Kernel) (string, float64) {
	const pre = "sm__ops_path_tensor_src_"
	best, bestV, total := "", 0.0, 0.0
	for _, m := range k.Metrics {
		if !strings.HasPrefix(m.Name, pre) || !strings.HasSuffix(m.Name, ".sum") || math.IsNaN(m.Value) || m.Value <= 0 {
			continue
		}
		t := strings.TrimSuffix(strings.TrimPrefix(m.Name, pre), ".sum")
		if strings.Contains(t, ".") {
			continue
		}
		if i := strings.Index(t, "_dst_"); i > 0 {
			t = t[:i]
		}
		total += m.Value
		if m.Value > bestV {
			best, bestV = t, m.Value
		}
	}
	if total == 0 {
		return "", 0
	}
	return best, bestV / total
}
