package report

import (
	"strings"

	"github.com/profan-dev/profan/internal/verdict"
)

// notesUpFront are the lines every format states of a verdict before its
// ranking, as the text says them: the scope of an application's reading,
// the rules that could not run for want of counters with the command that
// adds them (verbose: what each needs), and how a trace's kernels joined
// an export's. Markdown and HTML render these lines; the text writes its
// own, in colour, from the same functions.
func notesUpFront(v *verdict.Verdict, verbose bool) []string {
	var out []string
	if v.App != nil {
		for _, n := range v.App.Scope {
			out = append(out, "scope: "+n)
		}
	}
	for _, l := range missingLines(v.Missing, verbose) {
		out = append(out, strings.TrimSpace(l))
	}
	for _, j := range v.Joins {
		out = append(out, joinLine(j))
	}
	return out
}

// inUseLines are the changes the capture shows already made, one line
// each, as the text states them: never advised, always said.
func inUseLines(app *verdict.App) []string {
	if app == nil {
		return nil
	}
	var out []string
	for _, u := range app.InUse {
		out = append(out, "in use: "+u.Message)
	}
	return out
}

// block is a titled run of lines a format writes before the ranking.
type block struct {
	// Title names the run the lines are of ("timeline of run.json"),
	// "" when the verdict holds one run and one timeline.
	Title    string
	Timeline bool // the lines are a timeline's (its first is its head)
	Lines    []string
}

// preamble is what every format writes of a verdict before its kernels,
// where the wall clock goes first: each timeline's lines, then each run's
// host calls.
func preamble(v *verdict.Verdict) []block {
	var out []block
	several := len(v.Timelines) > 1 || len(v.Runs) > 1
	for _, tl := range v.Timelines {
		b := block{Timeline: true, Lines: timelineLines(tl.Timeline)}
		if several {
			b.Title = "timeline of " + tl.Run.Source
		}
		out = append(out, b)
	}
	for _, r := range v.Runs {
		if ls := hostCallLines(r); len(ls) > 0 {
			b := block{Lines: ls}
			if len(v.Runs) > 1 {
				b.Title = "host calls of " + r.Source
			}
			out = append(out, b)
		}
	}
	return out
}
