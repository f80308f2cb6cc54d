package ingest

import (
	"math"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// nvprofSummary reads nvprof's default summary: per
// kernel or memory operation, the total GPU time, its share, the number of
// calls and the average, minimum and maximum time; then the host API calls,
// either as rows of "Type" "API calls" in the same table (CUDA 9+) or as a
// second table after "==PID== API calls:" (older nvprof, no Type column).
// The units row gives each column its own unit: "Avg" can be in us while
// "Time" is in ms and "Max" in ms again.
//
// A kernel row becomes a Kernel with Invocations = Calls and Duration =
// Avg, and the metrics (section "summary"):
//
//	duration        average time per launch, with Min and Max as its range (s)
//	gpu_time_total  time summed over the launches (s)
//	gpu_time_pct    share of the total GPU time (%)
//
// Memcpy and memset rows become Activities with Invocations = Calls and
// Duration = Avg. API rows become APICalls.
type nvprofSummary struct{}

func (nvprofSummary) Name() string { return "nvprof-summary" }
func (nvprofSummary) Tool() string { return profan.ToolNvprof }

func (nvprofSummary) Match(h []string) bool {
	if len(h) > 0 && h[0] == "Type" {
		h = h[1:]
	}
	return len(h) >= 7 && h[0] == "Time(%)" && h[1] == "Time" && h[2] == "Calls" &&
		columnsOf(h).Has("Avg", "Min", "Max", "Name")
}

// skipHostSummary counts nvprof summary rows of OpenACC, OpenMP and other
// host activity, which profan does not model.
const skipHostSummary = "nvprof host summary row (OpenACC, OpenMP, ...)"

func (nvprofSummary) Parse(t *table) error {
	const format = "nvprof-summary"
	c, unitsOf, err := nvprofHeader(t, format, "Time(%)", "Time", "Calls", "Avg", "Min", "Max", "Name")
	if err != nil {
		return err
	}
	var pct, total, avg, lo, hi nvprofColumn
	for _, x := range []struct {
		p          *nvprofColumn
		name, base string
	}{
		{&pct, "Time(%)", units.Percent}, {&total, "Time", units.Second},
		{&avg, "Avg", units.Second}, {&lo, "Min", units.Second}, {&hi, "Max", units.Second},
	} {
		if *x.p, err = nvprofColumnOf(t, c, unitsOf, x.name, x.base); err != nil {
			return err
		}
	}
	typ, calls, name := c.Get("Type"), c.Get("Calls"), c.Get("Name")
	apiTable := typ < 0 && strings.HasPrefix(t.Marker, "API calls")
	// The GPU activities' shares and the API calls' each sum to 100%.
	var gpu, apis shares
	err = t.eachRow(format, "a header and units row", func(r row) error {
		var err error
		api := apiTable
		if typ >= 0 {
			switch r.String(typ) {
			case "GPU activities":
			case "API calls":
				api = true
			default:
				t.Skip(skipHostSummary)
				return nil // OpenACC, OpenMP and other host summaries
			}
		}
		var v [5]float64
		for i, col := range []nvprofColumn{pct, total, avg, lo, hi} {
			if v[i], err = col.at(t, r); err != nil {
				return err
			}
		}
		if api {
			apis.add(v[0], r.Line)
		} else {
			gpu.add(v[0], r.Line)
		}
		n, ok, err := countAt(t, r, calls, "Calls")
		if err != nil {
			return err
		}
		if !ok || n < 1 {
			return t.Errorf(r.Line, "column \"Calls\": %q is not a call count", r.String(calls))
		}
		printed := r.String(name)
		if strings.TrimSpace(printed) == "" {
			return t.Errorf(r.Line, "row has no name")
		}
		if api {
			err = apis.once(t, printed, r.Line)
		} else {
			err = gpu.once(t, printed, r.Line)
		}
		if err != nil {
			return err
		}
		switch {
		case api:
			t.API(&profan.APICall{Name: t.Intern(r.Bytes(name)), Calls: n, Total: v[1], Avg: v[2], Min: v[3], Max: v[4]})
		case strings.HasPrefix(printed, "["):
			a := &profan.Activity{
				Kind: t.Intern([]byte(activityKind(printed))), Name: t.Intern(r.Bytes(name)),
				Start: math.NaN(), Duration: v[2], Bytes: math.NaN(), Throughput: math.NaN(), Invocations: n,
			}
			if err := t.Activity(a); err != nil {
				return err
			}
		default:
			k := profan.NewKernel()
			k.ID = t.Ordinal()
			k.Name = t.Intern(r.Bytes(name))
			k.Demangled = t.demangled(k.Name, r.Line)
			k.Invocations, k.Duration = n, v[2]
			addSummaryMetrics(k, summaryTimes{
				pct: v[0], total: v[1], avg: v[2], min: v[3], max: v[4],
				rawPct: r.String(pct.i), rawTotal: r.String(total.i), rawAvg: r.String(avg.i),
				unitPct: unitsOf[pct.i], unitTotal: unitsOf[total.i], unitAvg: unitsOf[avg.i],
			})
			return t.Kernel(k, r.Line)
		}
		return nil
	})
	if err != nil {
		return err
	}
	// Only the section at the end of the input can have lost rows.
	last := &gpu
	if apis.last > gpu.last {
		last = &apis
	}
	return last.check(t, "Time(%)", 0.005)
}

// summaryTimes is the timing of one summary row (nvprof summary, nsys
// cuda_gpu_kern_sum): values in seconds and percent, and the total, share
// and average as printed with their units.
type summaryTimes struct {
	pct, total, avg, min, max   float64
	rawPct, rawTotal, rawAvg    string
	unitPct, unitTotal, unitAvg string
}

// addSummaryMetrics adds the metrics "duration" (the average, with the
// minimum and maximum as its range), "gpu_time_total" and "gpu_time_pct"
// of section "summary" to k.
func addSummaryMetrics(k *profan.Kernel, s summaryTimes) {
	m := profan.NewMetric("duration")
	m.Section, m.Value, m.Unit, m.Min, m.Max, m.Raw, m.RawUnit = "summary", s.avg, units.Second, s.min, s.max, s.rawAvg, s.unitAvg
	k.AddMetric(m)
	m = profan.NewMetric("gpu_time_total")
	m.Section, m.Value, m.Unit, m.Raw, m.RawUnit = "summary", s.total, units.Second, s.rawTotal, s.unitTotal
	k.AddMetric(m)
	m = profan.NewMetric("gpu_time_pct")
	m.Section, m.Value, m.Unit, m.Raw, m.RawUnit = "summary", s.pct, units.Percent, s.rawPct, s.unitPct
	k.AddMetric(m)
}
