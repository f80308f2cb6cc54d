package report

import (
	"encoding/json"
	"fmt"
	"io"
)

func gateText(w io.Writer, r *GateResult, opt Options) error {
	checks, failed := r.Checks, r.Failed
	c := func(code, s string) string {
		if !opt.Color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	// The verdict first, as the Markdown comment's: on traces the step's
	// wall and busy share, then the kernels.
	word, fails, body := summarizeGate(r).verdict(r)
	color := "32"
	if fails {
		color = "31"
	}
	fmt.Fprintf(w, "%s: %s\n", c(color, "profan gate: "+word), body)
	passed, skipped := 0, 0
	for _, ch := range checks {
		switch ch.Status {
		case checkFail:
			fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("31", "FAIL"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
			for _, l := range ch.Locations {
				fmt.Fprintf(w, "       at %s:%d %s\n", l.File, l.Line, l.SASS)
			}
			headroomLine(w, ch)
		case checkSuppressed:
			fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("2", "SUPP"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
			headroomLine(w, ch)
		case checkSkip:
			skipped++
			fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("33", "SKIP"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
			headroomLine(w, ch)
		case checkPass:
			passed++
			if opt.Verbose {
				fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("32", "PASS"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
				headroomLine(w, ch)
			}
		}
	}
	if b := baselineText(r.Baseline); b != "" {
		fmt.Fprintln(w, b)
	}
	verdict := c("32", "gate passed")
	if failed > 0 {
		verdict = c("31", "gate failed")
	}
	tail := ""
	if skipped > 0 {
		tail = fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Fprintf(w, "%s: %d checks, %d failed, %d passed%s\n", verdict, len(checks), failed, passed, tail)
	return nil
}

// headroomLine writes the verdict's headroom sentence under a check's
// line, on every check that carries it, as the other formats give it.
func headroomLine(w io.Writer, ch GateCheck) {
	if ch.Headroom != "" {
		fmt.Fprintf(w, "       headroom: %s\n", ch.Headroom)
	}
}

// baselineText says what a gate compared with: "baseline: run 4
// (branch=main)", or "no baseline: why"; "" for a gate without --baseline.
func baselineText(b *GateBaseline) string {
	switch {
	case b == nil:
		return ""
	case b.Missing != "":
		return "no baseline: " + b.Missing
	case len(b.Labels) > 0:
		return fmt.Sprintf("baseline: run %d (%s)", b.Run, LabelText(b.Labels))
	}
	return fmt.Sprintf("baseline: run %d", b.Run)
}

// gateSchemaVersion is the version of gate --format json's contract
// (docs/gate.schema.json): raised when a field changes meaning or goes.
const gateSchemaVersion = 1

// jsonGate is gate --format json: the verdict, the baseline compared with
// and every check.
type jsonGate struct {
	SchemaVersion int           `json:"schema_version"`
	Passed        bool          `json:"passed"`
	Failed        int           `json:"failed"`
	Baseline      *jsonBaseline `json:"baseline,omitempty"`
	Checks        []jsonCheck   `json:"checks"`
}

// jsonBaseline is the stored run a gate compared with, or why there was
// none (missing, under --missing-baseline pass).
type jsonBaseline struct {
	Run     int64             `json:"run,omitempty"`
	Labels  map[string]string `json:"labels,omitempty"`
	Program string            `json:"program,omitempty"`
	Missing string            `json:"missing,omitempty"`
}

// jsonCheck is the JSON form of one gate check.
type jsonCheck struct {
	Kernel  string `json:"kernel"`
	Launch  string `json:"launch,omitempty"`
	Kind    string `json:"kind"`
	Name    string `json:"name"` // the condition, rule or metric
	Status  string `json:"status"`
	Message string `json:"message"`
	Source  string `json:"source,omitempty"`
	// Headroom is the verdict's sentence on the kernel's headroom no
	// finding explains, on its finding checks.
	Headroom string `json:"headroom,omitempty"`
	// The numbers compared, where the check compared numbers.
	Metric    string   `json:"metric,omitempty"`
	Unit      string   `json:"unit,omitempty"`
	Old       *float64 `json:"old,omitempty"`
	New       *float64 `json:"new,omitempty"`
	Delta     *float64 `json:"delta,omitempty"`
	Op        string   `json:"op,omitempty"`
	Threshold *float64 `json:"threshold,omitempty"`
	Test      string   `json:"test,omitempty"`
	P         *float64 `json:"p,omitempty"`
}

// gateJSON writes the jsonGate of r.
func gateJSON(w io.Writer, r *GateResult, opt Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // "duration < 1ms", not "\u003c"
	doc := jsonGate{SchemaVersion: gateSchemaVersion, Passed: r.Failed == 0, Failed: r.Failed, Checks: make([]jsonCheck, 0, len(r.Checks))}
	if b := r.Baseline; b != nil {
		doc.Baseline = &jsonBaseline{Run: b.Run, Labels: b.Labels, Program: b.Program, Missing: b.Missing}
	}
	for _, c := range r.Checks {
		j := jsonCheck{Kernel: c.Kernel, Launch: c.Launch, Kind: c.Kind, Name: c.Name, Status: c.Status, Message: c.Message, Source: c.Source, Headroom: c.Headroom}
		if m := c.Measure; m != nil {
			j.Metric, j.Unit, j.Op, j.Test = m.Metric, m.Unit, m.Op, m.Test
			j.Old, j.New, j.Delta, j.Threshold, j.P = ptr(m.Old), ptr(m.New), ptr(m.Delta), ptr(m.Threshold), ptr(m.P)
		}
		doc.Checks = append(doc.Checks, j)
	}
	return enc.Encode(doc)
}
