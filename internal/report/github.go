package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
)

// GitHub renders gate results as GitHub Actions workflow commands.
var GitHub = &Format{Name: "github", Gate: gateGitHub}

// gateGitHub prints GitHub Actions workflow commands: an error annotation
// per failure, a warning per other warning-level finding.
func gateGitHub(w io.Writer, r *GateResult, opt Options) error {
	checks, failed := r.Checks, r.Failed
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	escProp := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	lines := []string{}
	skipped := 0
	for _, ch := range checks {
		if ch.Status == checkSkip {
			skipped++
		}
		level := ""
		switch {
		case ch.failed():
			level = "error"
		case ch.Finding != nil && ch.Finding.Severity >= profan.Warning && ch.Status != checkSuppressed:
			level = "warning"
		case ch.Status == checkSkip:
			level = "warning" // a condition not evaluated must be seen
		default:
			continue
		}
		title := "profan " + ch.Name + ": " + ch.Kernel
		if ch.Status == checkSkip {
			title = "profan skipped " + ch.Name + ": " + ch.Kernel
		}
		props := []string{"title=" + escProp.Replace(title)}
		file, line := ch.Source, 0
		for _, l := range ch.Locations {
			if l.File != "" {
				file, line = l.File, l.Line
				break
			}
		}
		if file != "" {
			props = append([]string{"file=" + escProp.Replace(file)}, props...)
			if line > 0 {
				props = append(props[:1], append([]string{fmt.Sprintf("line=%d", line)}, props[1:]...)...)
			}
		}
		msg := ch.Message
		if ch.Headroom != "" {
			msg += "\nheadroom: " + ch.Headroom
		}
		lines = append(lines, fmt.Sprintf("::%s %s::%s", level, strings.Join(props, ","), esc.Replace(msg)))
	}
	sort.SliceStable(lines, func(i, j int) bool {
		return strings.HasPrefix(lines[i], "::error") && !strings.HasPrefix(lines[j], "::error")
	})
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	also := ""
	if skipped > 0 {
		also = fmt.Sprintf(" (%d skipped)", skipped)
	}
	if b := baselineText(r.Baseline); b != "" {
		fmt.Fprintf(w, "::notice title=profan gate::%s\n", esc.Replace(b))
	}
	if failed > 0 {
		fmt.Fprintf(w, "::error title=profan gate::%d gate condition(s) failed%s\n", failed, also)
	} else {
		fmt.Fprintf(w, "::notice title=profan gate::all gate conditions hold%s\n", also)
	}
	return nil
}
