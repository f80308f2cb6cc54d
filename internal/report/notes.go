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
