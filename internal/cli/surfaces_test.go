package cli

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/metrics"
)

// surfaceFixtures are one capture of each family: ncu, nvprof, nsys and a
// PyTorch trace.
var surfaceFixtures = []string{
	"../../fixtures/pytorch2/tf.full.details.csv.gz",
	"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv",
	"../ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz",
	"../../fixtures/timeline/train_small_graphs.json.gz",
}

// surface is what a rendering says first: the ranked recommendations with
// their gains as printed, and the timeline's idle causes with their shares.
type surface struct {
	recs   []string // "rule gain", the first three
	causes []string // "label share"
}

func (s surface) String() string {
	return fmt.Sprintf("recommendations %q\nidle causes %q", s.recs, s.causes)
}

// TestOneVerdictEverySurface renders one capture of every family in text,
// Markdown, JSON, HTML and, once stored, report --db's HTML: the first
// three recommendations, their gains and the timeline's causes are the
// same on every surface (one verdict, made once by the analysis).
func TestOneVerdictEverySurface(t *testing.T) {
	t.Parallel()
	for _, f := range surfaceFixtures {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			out := map[string]string{}
			for _, format := range []string{"text", "markdown", "json", "html"} {
				o, errOut, code := run(t, "analyze", "--top", "1", "-f", format, f)
				if code != ExitOK {
					t.Fatalf("analyze -f %s: exit %d: %s", format, code, errOut)
				}
				out[format] = o
			}
			db := filepath.Join(t.TempDir(), "runs.db")
			if _, errOut, code := run(t, "ingest", "--db", db, f); code != ExitOK {
				t.Fatalf("ingest: exit %d: %s", code, errOut)
			}
			o, errOut, code := run(t, "report", "--db", db, "--html", "-")
			if code != ExitOK {
				t.Fatalf("report --db: exit %d: %s", code, errOut)
			}
			out["report --db"] = o
			want := jsonSurface(t, out["json"])
			for _, name := range []string{"text", "markdown", "html", "report --db"} {
				var got surface
				switch name {
				case "text":
					got = textSurface(out[name])
				case "markdown":
					got = textSurface(html.UnescapeString(strings.NewReplacer("\\", "", "**`", "", "`**", "").Replace(out[name])))
				default:
					got = htmlSurface(out[name])
				}
				if got.String() != want.String() {
					t.Errorf("%s says\n%s\nJSON says\n%s", name, got, want)
				}
			}
			if len(want.recs) == 0 && !strings.Contains(f, "nvprof") {
				t.Errorf("no recommendation: the test compares nothing")
			}
		})
	}
}

// jsonSurface reads the JSON's recommendations and causes, the gains
// written as the other formats write them (recGain).
func jsonSurface(t *testing.T, out string) surface {
	t.Helper()
	var doc struct {
		Recommendations []struct {
			Rule     string   `json:"rule"`
			Gain     *float64 `json:"estimated_gain"`
			WallGain *float64 `json:"estimated_wall_gain"`
			Rank     *float64 `json:"rank_wall_gain"`
		} `json:"recommendations"`
		Runs []struct {
			Timeline *struct {
				Idle []struct {
					Cause string  `json:"cause"`
					Share float64 `json:"share"`
				} `json:"idle"`
			} `json:"timeline"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var s surface
	for i, r := range doc.Recommendations {
		if i == 3 {
			break
		}
		g := r.Rule
		switch {
		case r.WallGain != nil:
			g += " " + metrics.ShareText(*r.WallGain)
		case r.Gain != nil && *r.Gain > 0 && r.Rank != nil && *r.Rank < *r.Gain-0.0005:
			g += " " + metrics.ShareText(*r.Gain) + " " + metrics.ShareText(*r.Rank)
		case r.Gain != nil && *r.Gain != 0:
			g += " " + metrics.ShareText(math.Abs(*r.Gain))
		}
		s.recs = append(s.recs, g)
	}
	for _, r := range doc.Runs {
		if r.Timeline == nil {
			continue
		}
		for _, i := range r.Timeline.Idle {
			s.causes = append(s.causes, analysis.IdleLabel(i.Cause)+" "+metrics.ShareText(i.Share))
		}
	}
	return s
}

// share is a share as ShareText prints it.
var share = regexp.MustCompile(`[<>]?\d+(?:\.\d+)?%`)

// gainOf is "rule" and the shares of its gain text, as jsonSurface has it.
func gainOf(rule, gain string) string {
	// The basis in parentheses quotes shares of its own.
	if i := strings.Index(gain, " ("); i >= 0 {
		gain = gain[:i]
	}
	out := rule
	for _, s := range share.FindAllString(gain, -1) {
		out += " " + s
	}
	return out
}

var (
	textRec  = regexp.MustCompile(`(?m)^\s*\d+\. (\S+)\s+(.*)$`)
	textIdle = regexp.MustCompile(`(?m)^(?:- )?idle [^:]*: (.*)$`)
)

// idleParts splits an idle line's causes: "label share (call, n more)".
func idleParts(line string) []string {
	var out []string
	for _, p := range splitTop(line) {
		if i := strings.Index(p, " ("); i >= 0 && !strings.HasPrefix(p[i:], " (GPU gaps)") {
			p = p[:i]
		}
		out = append(out, strings.TrimSpace(p))
	}
	return out
}

// splitTop splits s at the commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

func textSurface(out string) surface {
	var s surface
	if i := strings.Index(out, "hat to change first"); i >= 0 {
		for _, m := range textRec.FindAllStringSubmatch(out[i:], 3) {
			s.recs = append(s.recs, gainOf(m[1], m[2]))
		}
	}
	for _, m := range textIdle.FindAllStringSubmatch(out, -1) {
		s.causes = append(s.causes, idleParts(m[1])...)
	}
	return s
}

var (
	htmlRec  = regexp.MustCompile(`<li><code class="change">([^<]*)</code> ([^<]*)<br>`)
	htmlIdle = regexp.MustCompile(`<li>([^<:]*?) ((?:&lt;|&gt;)?\d+(?:\.\d+)?%) \([^<]*gaps\)`)
)

func htmlSurface(out string) surface {
	var s surface
	for _, m := range htmlRec.FindAllStringSubmatch(out, 3) {
		s.recs = append(s.recs, gainOf(html.UnescapeString(m[1]), html.UnescapeString(m[2])))
	}
	for _, m := range htmlIdle.FindAllStringSubmatch(out, -1) {
		s.causes = append(s.causes, html.UnescapeString(m[1])+" "+html.UnescapeString(m[2]))
	}
	return s
}
