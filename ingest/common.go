package ingest

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/ianlancetaylor/demangle"
	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/units"
)

// parseDim3 parses ncu's "(32, 4, 1)" (also without spaces).
func parseDim3(s string) (profan.Dim3, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(") || !strings.HasSuffix(s, ")") {
		return profan.Dim3{}, false
	}
	parts := strings.Split(s[1:len(s)-1], ",")
	if len(parts) != 3 {
		return profan.Dim3{}, false
	}
	var d profan.Dim3
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < 0 {
			return profan.Dim3{}, false
		}
		d[i] = n
	}
	return d, true
}

var deviceIndexRE = regexp.MustCompile(`^(.*\S)\s*\((\d+)\)$`)

// splitDevice splits nvprof's "TITAN X (Pascal) (0)" into the name and the
// index; the name itself may hold parentheses, so the last group wins.
func splitDevice(s string) (string, int) {
	if m := deviceIndexRE.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[2])
		return m[1], n
	}
	return s, -1
}

// demangled returns the demangled form of a mangled C++ symbol, or "".
func demangled(name string) string {
	if !strings.HasPrefix(name, "_Z") {
		return ""
	}
	d, err := demangle.ToString(name, demangle.NoClones)
	if err != nil {
		return ""
	}
	return d
}

// ncuValue builds a metric from an ncu value and unit (decimal prefixes).
// Instanced values ("32.00; 32.00; 4.00") keep every sample and their sum
// as the value, as ncu's own .sum rollups do for instanced counters.
func ncuValue(name, section, raw, unit string) (profan.Metric, error) {
	return makeMetric(name, section, raw, unit, units.Decimal)
}

func makeMetric(name, section, raw, unit string, base float64) (profan.Metric, error) {
	m := profan.NewMetric(name)
	m.Section, m.Raw, m.RawUnit = section, raw, unit
	sc := units.Lookup(unit, base)
	m.Unit = sc.Base
	v, ok, err := units.ParseNumber(raw)
	switch {
	case ok:
		m.Value = v * sc.Factor
	case err == nil:
		// n/a or empty: no value.
	case strings.Contains(raw, "; "):
		parts := strings.Split(raw, "; ")
		sum := 0.0
		for _, p := range parts {
			x, ok, _ := units.ParseNumber(strings.TrimSpace(p))
			if !ok {
				m.Samples = nil
				m.Text = raw
				return m, nil
			}
			m.Samples = append(m.Samples, x*sc.Factor)
			sum += x * sc.Factor
		}
		m.Value = sum
	default:
		m.Text = raw
	}
	if math.IsInf(m.Value, 0) {
		m.Value = math.NaN()
	}
	return m, nil
}

// setKernelFromMetric fills the kernel's launch fields from metrics that
// carry them, whichever name generation the export uses.
func setKernelFromMetric(k *profan.Kernel, m profan.Metric) {
	if !m.IsNumber() {
		if m.Name == "device__attribute_display_name" && m.Text != "" && k.Device == "" {
			k.Device = m.Text
		}
		return
	}
	switch m.Name {
	case "gpu__time_duration.sum", "gpu__time_duration", "Duration":
		if m.Unit == units.Second && math.IsNaN(k.Duration) {
			k.Duration = m.Value
		}
	case "launch__registers_per_thread", "Registers Per Thread":
		if k.Registers == 0 {
			k.Registers = int(m.Value)
		}
	case "launch__shared_mem_per_block_static", "Static Shared Memory Per Block":
		if math.IsNaN(k.StaticSMem) {
			k.StaticSMem = m.Value
		}
	case "launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block":
		if math.IsNaN(k.DynamicSMem) {
			k.DynamicSMem = m.Value
		}
	}
}

// ccString normalizes a compute capability ("8" → "8.0").
func ccString(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || s == "No-CC" {
		return ""
	}
	if !strings.Contains(s, ".") {
		return s + ".0"
	}
	return s
}
