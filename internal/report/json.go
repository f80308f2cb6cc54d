package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// jsonWriter writes {"kernels": [...], "groups": [...], "runs": [...], "missing": [...], "metric_units": {...}}.
// The kernel fields are a stable contract: add fields, never rename them.
type jsonWriter struct {
	w     *bufio.Writer
	n     int
	runOf map[*profan.Run]int
	runs  []*profan.Run
	// launches writes every launch; otherwise only each group's
	// representative launch is written, at the end, so that a long trace's
	// JSON grows with its kernels, not its launches.
	launches bool
	// skipped gathers each run's skipped rules, said once per run rather
	// than on every launch.
	skipped map[*profan.Run][]string
	seen    map[*profan.Run]map[string]bool
}

// jsonMissing is a rule that could not run for want of counters, with the
// command that adds them, once per capture set.
type jsonMissing struct {
	Rule    string `json:"rule"`
	Needs   string `json:"needs"`
	Command string `json:"command"`
	Kernels int    `json:"kernels"`
}

func newJSON(w io.Writer, opt Options) *jsonWriter {
	return &jsonWriter{w: bufio.NewWriterSize(w, 64<<10), runOf: map[*profan.Run]int{},
		launches: opt.Launches, skipped: map[*profan.Run][]string{}, seen: map[*profan.Run]map[string]bool{}}
}

// analyzeSchemaVersion is the version of analyze --format json's
// contract, bumped when a field's meaning changes. 2: recommendations
// state their gain in time (gain_basis, gain_s, gain_share, gain_of_s,
// kernel_gain_s); rank_wall_gain is a share of the kernel time on a
// capture without a timeline. A document without schema_version is 1.
const analyzeSchemaVersion = 2

// jsonKernel is the JSON form of an analysed kernel.
type jsonKernel struct {
	ID          string             `json:"id"`
	Name        string             `json:"name"`
	Demangled   string             `json:"demangled,omitempty"`
	Run         int                `json:"run"`
	Device      string             `json:"device"`
	DeviceFrom  string             `json:"device_from"`
	DeviceNote  string             `json:"device_note,omitempty"`
	CC          string             `json:"cc"`
	Grid        [3]int             `json:"grid"`
	Block       [3]int             `json:"block"`
	Invocations int                `json:"invocations"`
	Duration    *float64           `json:"duration_s"`
	Metrics     map[string]float64 `json:"metrics"`
	// Estimates names the metrics that are estimates, not in the export
	// (an even split of a total the page gives for loads and stores
	// together, a FLOP rate from whole percents of the peak).
	Estimates   []string          `json:"estimates,omitempty"`
	Findings    []jsonFinding     `json:"findings"`
	NCUFindings []jsonToolFinding `json:"ncu_findings,omitempty"`
	Model       JSONModel         `json:"model"`
	Limiter     JSONLimiter       `json:"limiter"`
	Roofline    *jsonRoofline     `json:"roofline,omitempty"`
	Warnings    []string          `json:"warnings,omitempty"`
	// Skipped is left empty by analyze's JSON, which says a run's skipped
	// rules once, on the run.
	Skipped []string `json:"skipped_rules,omitempty"`
	// Timeline is where the wall clock goes, for an export with one.
	Timeline *jsonTimeline `json:"timeline,omitempty"`
}

// jsonRoofline is the kernel's place on its GPU's roofline (absent when it
// did no floating-point work or lacks the counters).
type jsonRoofline struct {
	FlopPerByte   float64 `json:"flop_per_byte"`
	FlopPerS      float64 `json:"flop_per_s"`
	LimitFlopPerS float64 `json:"limit_flop_per_s"`
}

// jsonFinding is the JSON form of a finding.
type jsonFinding struct {
	Rule      string         `json:"rule"`
	Severity  string         `json:"severity"`
	Message   string         `json:"message"`
	Advice    string         `json:"advice"`
	Gain      *float64       `json:"estimated_gain"`
	Evidence  []string       `json:"evidence,omitempty"`
	Locations []jsonLocation `json:"locations,omitempty"`
}

// jsonLocation is a source location.
type jsonLocation struct {
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	SASS string `json:"sass,omitempty"`
}

// jsonToolFinding is one of ncu's own rule results.
type jsonToolFinding struct {
	Section     string   `json:"section"`
	Rule        string   `json:"rule"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Speedup     *float64 `json:"estimated_speedup_pct,omitempty"`
	SpeedupType string   `json:"speedup_type,omitempty"`
}

// jsonRun describes one export.
type jsonRun struct {
	Source   string           `json:"source"`
	Tool     string           `json:"tool"`
	Format   string           `json:"format"`
	Digest   string           `json:"digest"`
	Messages []profan.Message `json:"messages,omitempty"`
	Findings []jsonFinding    `json:"findings,omitempty"`
	// Skipped is every rule that could not run on some kernel of the run,
	// with what it needs.
	Skipped []string `json:"skipped_rules,omitempty"`
	// Timeline is where the wall clock goes, for an export with one.
	Timeline *jsonTimeline `json:"timeline,omitempty"`
	// HostCalls is the host's time per call of an nsys export's API
	// summaries or API trace, CUDA API and OS runtime.
	HostCalls []jsonHostCall `json:"host_calls,omitempty"`
}

func ptr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// toJSON converts an analysed kernel.
func toJSON(a *verdict.Kernel, run int) jsonKernel {
	k := a.Record
	j := jsonKernel{
		ID: k.ID, Name: k.Name, Demangled: k.Demangled, Run: run, CC: k.CC,
		Grid: k.Grid, Block: k.Block, Invocations: k.Invocations, Duration: ptr(k.Duration),
		Metrics: map[string]float64{}, Findings: []jsonFinding{}, Model: toJSONModel(a.Model), Limiter: ToJSONLimiter(a.Limiter),
		Warnings: a.Metrics.Warnings, Skipped: a.Skipped, DeviceFrom: a.GPU.Source.String(), DeviceNote: a.GPU.Note(),
	}
	if r, ok := verdict.Roofline(a); ok {
		j.Roofline = &jsonRoofline{FlopPerByte: r.FlopPerByte, FlopPerS: r.FlopPerS, LimitFlopPerS: r.LimitFlopPerS}
	}
	j.Device = k.Device
	if j.Device == "" && a.Spec != nil {
		j.Device = a.Spec.Name
	}
	for _, v := range a.Metrics.Values {
		j.Metrics[v.Name] = v.Value
		if v.Estimate {
			j.Estimates = append(j.Estimates, v.Name)
		}
	}
	for _, f := range a.Findings {
		j.Findings = append(j.Findings, toJSONFinding(f))
	}
	for _, f := range k.Findings {
		j.NCUFindings = append(j.NCUFindings, jsonToolFinding{Section: f.Section, Rule: f.Rule, Type: f.Type, Description: f.Description, Speedup: ptr(f.Speedup), SpeedupType: f.SpeedupType})
	}
	return j
}

func (j *jsonWriter) Kernel(a *verdict.Kernel) error {
	if _, ok := j.runOf[a.Run]; !ok {
		j.runOf[a.Run] = len(j.runs)
		j.runs = append(j.runs, a.Run)
	}
	if len(a.Skipped) > 0 {
		seen := j.seen[a.Run]
		if seen == nil {
			seen = map[string]bool{}
			j.seen[a.Run] = seen
		}
		for _, s := range a.Skipped {
			if !seen[s] {
				seen[s] = true
				j.skipped[a.Run] = append(j.skipped[a.Run], s)
			}
		}
	}
	if !j.launches {
		return nil
	}
	return j.kernel(a)
}

// kernel writes one launch's verdict.
func (j *jsonWriter) kernel(a *verdict.Kernel) error {
	if j.n == 0 {
		fmt.Fprintf(j.w, "{\"schema_version\": %d,\n\"kernels\": [\n", analyzeSchemaVersion)
	} else {
		j.w.WriteString(",\n")
	}
	j.n++
	jk := toJSON(a, j.runOf[a.Run])
	jk.Skipped = nil
	b, err := json.Marshal(jk)
	if err != nil {
		return err
	}
	_, err = j.w.Write(b)
	return err
}

func (j *jsonWriter) End(v *verdict.Verdict) error {
	runs := v.Runs
	if !j.launches {
		for _, a := range v.Reps {
			if err := j.kernel(a); err != nil {
				return err
			}
		}
	}
	if j.n == 0 {
		fmt.Fprintf(j.w, "{\"schema_version\": %d,\n\"kernels\": [", analyzeSchemaVersion)
	}
	j.w.WriteString("\n],\n\"groups\": ")
	gb, err := json.Marshal(toJSONGroups(v.Groups))
	if err != nil {
		return err
	}
	j.w.Write(gb)
	app := v.App
	cats, recs := toJSONApp(v)
	// What the capture leaves out, before what it holds.
	sb, err := json.Marshal(append([]string{}, app.Scope...))
	if err != nil {
		return err
	}
	j.w.WriteString(",\n\"scope\": ")
	j.w.Write(sb)
	cb, err := json.Marshal(cats)
	if err != nil {
		return err
	}
	j.w.WriteString(",\n\"categories\": ")
	j.w.Write(cb)
	rb, err := json.Marshal(recs)
	if err != nil {
		return err
	}
	j.w.WriteString(",\n\"recommendations\": ")
	j.w.Write(rb)
	tb, err := json.Marshal(toJSONTogether(v))
	if err != nil {
		return err
	}
	j.w.WriteString(",\n\"together\": ")
	j.w.Write(tb)
	inUse, sup := toJSONAdvice(v)
	ub, err := json.Marshal(inUse)
	if err != nil {
		return err
	}
	j.w.WriteString(",\n\"levers_in_use\": ")
	j.w.Write(ub)
	if len(sup) > 0 {
		sb, err := json.Marshal(sup)
		if err != nil {
			return err
		}
		j.w.WriteString(",\n\"suppressed_recommendations\": ")
		j.w.Write(sb)
	}
	j.w.WriteString(",\n\"runs\": ")
	// Runs appear in the order of their first kernel; runs without kernels
	// follow.
	ordered := append([]*profan.Run(nil), j.runs...)
	for _, r := range runs {
		if _, ok := j.runOf[r]; !ok {
			ordered = append(ordered, r)
		}
	}
	out := make([]jsonRun, 0, len(ordered))
	for _, r := range ordered {
		jr := jsonRun{Source: r.Source, Tool: r.Tool, Format: r.Format, Digest: r.Digest, Messages: r.Messages, Skipped: j.skipped[r], Timeline: toJSONTimeline(v.TimelineOf(r)), HostCalls: toJSONHostCalls(r)}
		for _, f := range r.Findings {
			jr.Findings = append(jr.Findings, toJSONFinding(f))
		}
		out = append(out, jr)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	j.w.Write(b)
	if len(v.Joins) > 0 {
		jb, err := json.Marshal(toJSONJoins(v.Joins))
		if err != nil {
			return err
		}
		j.w.WriteString(",\n\"joins\": ")
		j.w.Write(jb)
	}
	units := map[string]string{}
	for _, d := range metrics.Defs {
		units[d.Name] = d.Unit
	}
	b, _ = json.Marshal(units)
	miss := make([]jsonMissing, 0, len(v.Missing))
	for _, m := range v.Missing {
		miss = append(miss, jsonMissing{Rule: m.Rule, Needs: m.Needs, Command: m.Command, Kernels: m.Kernels})
	}
	mb, _ := json.Marshal(miss)
	j.w.WriteString(",\n\"missing\": ")
	j.w.Write(mb)
	j.w.WriteString(",\n\"metric_units\": ")
	j.w.Write(b)
	j.w.WriteString("\n}\n")
	return j.w.Flush()
}

func toJSONFinding(f profan.Finding) jsonFinding {
	jf := jsonFinding{Rule: f.Rule, Severity: f.Severity.String(), Message: f.Message, Advice: f.Advice, Gain: ptr(f.Gain), Evidence: f.Evidence}
	for _, l := range f.Locations {
		jf.Locations = append(jf.Locations, jsonLocation(l))
	}
	return jf
}

// jsonGroup is the JSON form of a group of launches of one kernel.
type jsonGroup struct {
	Name        string             `json:"name"`
	DisplayName string             `json:"display_name"`
	Library     string             `json:"library,omitempty"`
	Kind        string             `json:"kind,omitempty"`
	Launches    int                `json:"launches"`
	Duration    *float64           `json:"duration_s"`
	Mean        *float64           `json:"mean_duration_s"`
	Min         *float64           `json:"min_duration_s"`
	Max         *float64           `json:"max_duration_s"`
	StdDev      *float64           `json:"stddev_duration_s"`
	Share       *float64           `json:"time_share"`
	Kernels     verdict.IDList     `json:"kernels"` // every launch's id
	Findings    []jsonGroupFinding `json:"findings"`
}

// jsonGroupFinding is one rule's findings over a group.
type jsonGroupFinding struct {
	Rule     string   `json:"rule"`
	Severity string   `json:"severity"`
	Launches int      `json:"launches"`
	Gain     *float64 `json:"estimated_gain"` // share of the capture's kernel time
	Message  string   `json:"message"`
	Advice   string   `json:"advice"`
	// Launch and Grid name the launch the message speaks of, when its
	// grid is not the group's longest launch's.
	Launch string    `json:"launch,omitempty"`
	Grid   *[3]int64 `json:"grid,omitempty"`
	// Folded is set for a finding under the noise floor (its gain under
	// 0.5% of the kernel time), which the other formats fold into one
	// line.
	Folded bool `json:"folded,omitempty"`
}

// toJSONGroups converts groups, sorted by total time.
func toJSONGroups(gs []*verdict.Group) []jsonGroup {
	out := make([]jsonGroup, 0, len(gs))
	for _, g := range gs {
		jg := jsonGroup{Name: g.Name, DisplayName: g.Info.Display, Library: g.Info.Library.String(), Kind: g.Info.Kind.String(),
			Launches: g.Launches, Duration: ptr(g.Duration), Mean: ptr(g.Mean()), Min: ptr(g.Min), Max: ptr(g.Max),
			StdDev: ptr(g.StdDev()), Share: ptr(g.Share), Kernels: g.IDs, Findings: []jsonGroupFinding{}}
		if g.Timed == 0 {
			jg.Duration = nil
		}
		for _, f := range g.Findings {
			jf := jsonGroupFinding{Rule: f.Rule, Severity: f.Severity.String(), Launches: f.Launches,
				Gain: ptr(f.CaptureGain), Message: f.Message, Advice: f.Advice, Folded: verdict.UnderFloor(f)}
			if g.OtherLaunch(f) != "" {
				jf.Launch, jf.Grid = f.Launch, &[3]int64{int64(f.Grid[0]), int64(f.Grid[1]), int64(f.Grid[2])}
			}
			jg.Findings = append(jg.Findings, jf)
		}
		out = append(out, jg)
	}
	return out
}

// jsonFormat is the contract other tools read: verdicts and gate results.
var jsonFormat = &Format{Name: "json",
	Kernels: func(w io.Writer, opt Options) Writer { return newJSON(w, opt) },
	IDs:     true,
	Gate:    gateJSON,
	Trend:   trendJSON,
	Diff:    diffJSON,
	Runs:    runsJSON,
	Model:   modelJSON,
}
