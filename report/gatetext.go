package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/profan-dev/profan/gate"
)

func gateText(w io.Writer, r *gate.Result, opt Options) error {
	checks, failed := r.Checks, r.Failed
	c := func(code, s string) string {
		if !opt.Color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	passed, skipped := 0, 0
	for _, ch := range checks {
		switch ch.Status {
		case gate.Fail:
			fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("31", "FAIL"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
			for _, l := range ch.Locations {
				fmt.Fprintf(w, "       at %s:%d %s\n", l.File, l.Line, l.SASS)
			}
		case gate.Suppressed:
			fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("2", "SUPP"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
		case gate.Skip:
			skipped++
			fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("33", "SKIP"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
		case gate.Pass:
			passed++
			if opt.Verbose {
				fmt.Fprintf(w, "%s %s [%s %s] %s\n", c("32", "PASS"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
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

// baselineText says what a gate compared with: "baseline: run 4
// (branch=main)", or "no baseline: why"; "" for a gate without --baseline.
func baselineText(b *gate.Baseline) string {
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

// JSONCheck is the JSON form of one gate check (the contract of gate
// --format json).
type JSONCheck struct {
	Kernel  string      `json:"kernel"`
	Launch  string      `json:"launch,omitempty"`
	Kind    gate.Kind   `json:"kind"`
	Name    string      `json:"name"` // the condition, rule or metric
	Status  gate.Status `json:"status"`
	Message string      `json:"message"`
	Source  string      `json:"source,omitempty"`
}

// gateJSON writes {"passed", "failed", "checks"}.
func gateJSON(w io.Writer, r *gate.Result, opt Options) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	checks := make([]JSONCheck, 0, len(r.Checks))
	for _, c := range r.Checks {
		checks = append(checks, JSONCheck{Kernel: c.Kernel, Launch: c.Launch, Kind: c.Kind, Name: c.Name, Status: c.Status, Message: c.Message, Source: c.Source})
	}
	return enc.Encode(struct {
		Passed bool        `json:"passed"`
		Failed int         `json:"failed"`
		Checks []JSONCheck `json:"checks"`
	}{r.Failed == 0, r.Failed, checks})
}
