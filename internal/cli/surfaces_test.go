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

	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/verdict"
)

// surfaceFixtures are one capture of each family: ncu, nvprof, nsys and a
// PyTorch trace.
var surfaceFixtures = []string{
	"../../fixtures/pytorch2/tf.full.details.csv.gz",
	"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv",
	"../ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz",
	"../../fixtures/timeline/train_small_graphs.json.gz",
	// A trace of three marked steps: gains per step, stored with the count.
	"../../fixtures/host9/copy.default.json.gz",
	// Two exports of one program read together (report --db stores each
	// as a run of its own, so it is not compared): nvprof's metrics with
	// its trace, an ncu export with the PyTorch trace of the same step.
	"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv+../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv",
	"../../fixtures/check7/decode.pair.default.csv.gz+../../fixtures/check7/decode.default.json.gz",
	// A step whose host time is mostly one op's own work (cuDNN's
	// per-shape plan builds, "op host work"), stored by report --db.
	"../../fixtures/host26/spec.bf16.json.gz",
}

// surface is what a rendering says first: the ranked recommendations with
// their gains as printed, and the timeline's idle causes with their shares.
type surface struct {
	recs   []string // "rule gain", the first three
	causes []string // "label share"
	// together is what the recommendations save together, as printed
	// after "together ~": on a trace, the levers replayed at once.
	together string
}

// says reports whether s states what the JSON does: the same causes, the
// same recommendations in the same order, each gain as the JSON's in
// time and share (the basis of the estimate follows it).
func (s surface) says(json surface) bool {
	if fmt.Sprint(s.causes) != fmt.Sprint(json.causes) || len(s.recs) != len(json.recs) || s.together != json.together {
		return false
	}
	for i, r := range json.recs {
		if !strings.HasPrefix(s.recs[i], r) {
			return false
		}
	}
	return true
}

func (s surface) String() string {
	return fmt.Sprintf("recommendations %q\nidle causes %q\ntogether %q", s.recs, s.causes, s.together)
}

// TestOneVerdictEverySurface renders one capture of every family in text,
// Markdown, JSON, HTML and, once stored, report --db's HTML: the first
// three recommendations, their gains and the timeline's causes are the
// same on every surface (one verdict, made once by the analysis).
func TestOneVerdictEverySurface(t *testing.T) {
	t.Parallel()
	for _, f := range surfaceFixtures {
		files := strings.Split(f, "+")
		t.Run(filepath.Base(files[len(files)-1]), func(t *testing.T) {
			t.Parallel()
			out := map[string]string{}
			for _, format := range []string{"text", "markdown", "json", "html"} {
				o, errOut, code := run(t, append([]string{"analyze", "--top", "1", "-f", format}, files...)...)
				if code != ExitOK {
					t.Fatalf("analyze -f %s: exit %d: %s", format, code, errOut)
				}
				out[format] = o
			}
			// report of the exports themselves, as analyze reads them.
			o, errOut, code := run(t, append([]string{"report", "--html", "-"}, files...)...)
			if code != ExitOK {
				t.Fatalf("report: exit %d: %s", code, errOut)
			}
			out["report"] = o
			surfaces := []string{"text", "markdown", "html", "report"}
			if len(files) == 1 {
				surfaces = append(surfaces, "report --db")
				out["report --db"] = storedReport(t, f)
			}
			want := jsonSurface(t, out["json"])
			for _, name := range surfaces {
				var got surface
				switch name {
				case "text":
					got = textSurface(out[name])
				case "markdown":
					got = textSurface(html.UnescapeString(strings.NewReplacer("\\", "", "**`", "", "`**", "").Replace(out[name])))
				default:
					got = htmlSurface(out[name])
				}
				if !got.says(want) {
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
			Rule string `json:"rule"`
			jsonGain
		} `json:"recommendations"`
		Together *jsonGain `json:"together"`
		Runs     []struct {
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
		if t := r.text(); t != "" {
			g += " ~" + t
		}
		s.recs = append(s.recs, g)
	}
	if doc.Together != nil {
		s.together = doc.Together.text()
	}
	for _, r := range doc.Runs {
		if r.Timeline == nil {
			continue
		}
		for _, i := range r.Timeline.Idle {
			s.causes = append(s.causes, verdict.IdleLabel(i.Cause)+" "+metrics.ShareText(i.Share))
		}
	}
	return s
}

// jsonGain is a gain as the JSON states it (a recommendation's, or
// together's).
type jsonGain struct {
	Basis string   `json:"gain_basis"`
	Gain  *float64 `json:"gain_s"`
	Share *float64 `json:"gain_share"`
	Of    *float64 `json:"gain_of_s"`
	Steps int      `json:"gain_steps"`
	Step  *float64 `json:"gain_step_s"`
	Wall  *float64 `json:"step_wall_s"`
	// Unprofiled: the step is the replay's (verdict.Gain.StepText).
	Unprofiled bool `json:"step_unprofiled"`
}

// text is g as the other formats write it after "~" (recGain); "" when
// it states no time.
func (g jsonGain) text() string {
	if g.Gain == nil || !(*g.Gain > 0) || g.Share == nil || g.Of == nil {
		return ""
	}
	if g.Steps > 0 && g.Basis == "wall" && g.Step != nil && g.Wall != nil {
		step := metrics.Format(*g.Wall, "s")
		if g.Unprofiled {
			step += " unprofiled"
		}
		return fmt.Sprintf("%s a step of %s (%s of the wall)", metrics.Format(*g.Step, "s"), step, metrics.ShareText(*g.Share))
	}
	what := "kernel time"
	if g.Basis == "wall" {
		what = "wall"
	}
	return fmt.Sprintf("%s of the %s %s (%s)", metrics.Format(*g.Gain, "s"), metrics.Format(*g.Of, "s"), what, metrics.ShareText(*g.Share))
}

// together reads what a rendering prints after "together ~".
var together = regexp.MustCompile(`together ~([^()\n<]*\([^()<]*\))`)

func togetherOf(out string) string {
	if m := together.FindStringSubmatch(out); m != nil {
		return m[1]
	}
	return ""
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
			s.recs = append(s.recs, m[1]+" "+m[2])
		}
	}
	for _, m := range textIdle.FindAllStringSubmatch(out, -1) {
		s.causes = append(s.causes, idleParts(m[1])...)
	}
	s.together = togetherOf(out)
	return s
}

var (
	htmlRec  = regexp.MustCompile(`<li><code class="change">([^<]*)</code> ([^<]*)<br>`)
	htmlIdle = regexp.MustCompile(`<li>([^<:]*?) ((?:&lt;|&gt;)?\d+(?:\.\d+)?%) \([^<]*gaps\)`)
)

func htmlSurface(out string) surface {
	var s surface
	for _, m := range htmlRec.FindAllStringSubmatch(out, 3) {
		s.recs = append(s.recs, html.UnescapeString(m[1])+" "+html.UnescapeString(m[2]))
	}
	for _, m := range htmlIdle.FindAllStringSubmatch(out, -1) {
		s.causes = append(s.causes, html.UnescapeString(m[1])+" "+html.UnescapeString(m[2]))
	}
	s.together = togetherOf(html.UnescapeString(out))
	return s
}

// TestFoldedEverySurface: the findings under the noise floor that the
// verdict folds are folded on every surface, the same ones: one line per
// kernel in text, Markdown, HTML and report --db, "folded" in the JSON.
func TestFoldedEverySurface(t *testing.T) {
	t.Parallel()
	const f = "../../fixtures/pytorch2/tf.full.details.csv.gz"
	folded := regexp.MustCompile(`folded: ([a-z0-9, -]+) \(-v lists them\)`)
	rules := func(out string) []string {
		var rs []string
		for _, m := range folded.FindAllStringSubmatch(out, -1) {
			rs = append(rs, strings.Split(m[1], ", ")...)
		}
		return rs
	}
	var want []string
	for _, format := range []string{"text", "markdown", "html"} {
		out, errOut, code := run(t, "analyze", "--top", "0", "-f", format, f)
		if code != ExitOK {
			t.Fatalf("analyze -f %s: exit %d: %s", format, code, errOut)
		}
		got := rules(strings.NewReplacer(`<code class="rule">`, "", "</code>", "").Replace(out))
		if want == nil {
			want = got
		}
		if len(got) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("-f %s folds %q, text %q", format, got, want)
		}
	}
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, errOut, code := run(t, "ingest", "--db", db, f); code != ExitOK {
		t.Fatal(errOut)
	}
	out, errOut, code := run(t, "report", "--db", db, "--html", "-")
	if got := rules(strings.NewReplacer(`<code class="rule">`, "", "</code>", "").Replace(out)); code != ExitOK || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("report --db folds %q, text %q (exit %d: %s)", got, want, code, errOut)
	}
	out, _, _ = run(t, "analyze", "-f", "json", f)
	var doc struct {
		Groups []struct {
			Findings []struct {
				Rule   string `json:"rule"`
				Folded bool   `json:"folded"`
			} `json:"findings"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range doc.Groups {
		for _, x := range g.Findings {
			if x.Folded {
				got = append(got, x.Rule)
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("JSON marks %q folded, text folds %q", got, want)
	}
}

// TestQuietEverySurface: a step no lever clears the noise of
// (fixtures/host18's gnn.workers, whose DataLoader's feed bounds it:
// every lever 0.0% replayed at once) says so on every surface: the list's
// head in text, Markdown, HTML and report --db, and JSON's together gives
// the replayed gain with under_noise, where it was null, which the JSON
// contract keeps for "nothing advised" and "not replayed". Each says what
// holds the step: the workers' pace, 5.047 ms a step (workers_feed_s).
func TestQuietEverySurface(t *testing.T) {
	skipShort(t)
	t.Parallel()
	const f = "../../fixtures/host18/gnn.workers.json.gz"
	const want = "no lever clears the step's noise: together under 1.0% of the wall, replayed at once; " +
		"the DataLoader's workers feed a step every 5.047 ms, which bounds it"
	for _, format := range []string{"text", "markdown", "html"} {
		out, errOut, code := run(t, "analyze", "--top", "1", "-f", format, f)
		if code != ExitOK {
			t.Fatalf("analyze -f %s: exit %d: %s", format, code, errOut)
		}
		if !strings.Contains(html.UnescapeString(out), want) {
			t.Errorf("-f %s does not say %q", format, want)
		}
	}
	if out := storedReport(t, f); !strings.Contains(html.UnescapeString(out), want) {
		t.Errorf("report --db does not say %q", want)
	}
	out, errOut, code := run(t, "analyze", "-f", "json", f)
	if code != ExitOK {
		t.Fatalf("analyze -f json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Together *struct {
			Share      *float64 `json:"gain_share"`
			UnderNoise bool     `json:"under_noise"`
			Feed       *float64 `json:"workers_feed_s"`
		} `json:"together"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Together == nil || doc.Together.Share == nil || !(*doc.Together.Share < verdict.NoiseShare) || !doc.Together.UnderNoise {
		t.Errorf("JSON together %+v, want the replayed gain under %v with under_noise", doc.Together, verdict.NoiseShare)
	}
	if doc.Together == nil || doc.Together.Feed == nil || math.Abs(*doc.Together.Feed-0.005047) > 5e-7 {
		t.Errorf("JSON together %+v, want workers_feed_s 0.005047", doc.Together)
	}
}

// TestJoinCountedOnce: a PyTorch trace given with the ncu export of the
// same step, every launch matched, is one capture: its 353 launches are
// counted once (not 706 of 38 kernels), the trace giving the timeline;
// nvprof's metrics with the trace of the same program likewise (301, not
// 602), the output saying the counters come from a second run.
func TestJoinCountedOnce(t *testing.T) {
	t.Parallel()
	out, errOut, code := run(t, "analyze", "../../fixtures/check7/decode.pair.default.csv.gz", "../../fixtures/check7/decode.default.json.gz")
	if code != ExitOK || !strings.Contains(out, "\n353 launches of 19 kernels · 1.356 ms of kernel time\n") || !strings.Contains(out, "one capture: its kernels are counted once") ||
		!strings.Contains(out, "\nwall 8.376 ms") || strings.Contains(out, "2 processes") {
		t.Errorf("ncu + trace: exit %d\n%.3000s%s", code, out, errOut)
	}
	// gate reads the pair as analyze does: one check a kernel, none on the
	// trace's launches.
	out, errOut, code = run(t, "gate", "--require", "duration < 1s", "-f", "json", "../../fixtures/check7/decode.pair.default.csv.gz", "../../fixtures/check7/decode.default.json.gz")
	var g struct {
		Checks []struct {
			Kind   string `json:"kind"`
			Source string `json:"source"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &g); code != ExitOK || err != nil {
		t.Fatalf("gate ncu + trace: exit %d, %v%s", code, err, errOut)
	}
	require := 0
	for _, c := range g.Checks {
		if c.Kind == "require" {
			require++
		}
		if strings.HasSuffix(c.Source, ".json.gz") {
			t.Errorf("gate ncu + trace: a check on the trace's launches, counted twice: %+v", c)
		}
	}
	if require != 19 {
		t.Errorf("gate ncu + trace: %d duration checks, want 19 (one a kernel)", require)
	}
	const nv = "../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-"
	out, errOut, code = run(t, "analyze", nv+"metrics.csv", nv+"trace.csv")
	if code != ExitOK || !strings.Contains(out, "\n301 launches of 1 kernel · 23.031 ms of kernel time\n") || !strings.Contains(out, "the counters and the times come from two runs of it") ||
		strings.Contains(out, "pin_memory") || strings.Contains(out, "lack counters on 301 launches (thread-divergence") {
		t.Errorf("nvprof metrics + trace: exit %d\n%.3000s%s", code, out, errOut)
	}
}

// TestNotesEverySurface: what the text says besides the ranking (the
// rules that lack counters and the command that adds them, the changes
// already in use, the run-level findings) every other surface says too:
// Markdown and HTML once stated none of it, so a pull-request comment
// never said which rules could not run.
func TestNotesEverySurface(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		file string
		want []string // line starts that the text has, and so each surface
	}{
		{fx + "transpose.import.details.csv", []string{"missing: ", "add it: "}},
		{"../../fixtures/timeline/train_small_graphs.json.gz", []string{"in use: "}},
		{"../ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapisum-osrtsum.csv", []string{"6 synchronous copy calls", "fix: use pinned buffers"}},
	} {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			t.Parallel()
			text, errOut, code := run(t, "analyze", tt.file)
			if code != ExitOK {
				t.Fatalf("analyze: exit %d: %s", code, errOut)
			}
			var lines []string
			for _, l := range strings.Split(text, "\n") {
				l = strings.TrimSpace(l)
				for _, w := range tt.want {
					if strings.HasPrefix(l, w) {
						lines = append(lines, l)
					}
				}
			}
			if len(lines) < len(tt.want) {
				t.Fatalf("the text has %d of the lines %q:\n%s", len(lines), tt.want, text)
			}
			for _, format := range []string{"markdown", "html"} {
				out, errOut, code := run(t, "analyze", "-f", format, tt.file)
				if code != ExitOK {
					t.Fatalf("analyze -f %s: exit %d: %s", format, code, errOut)
				}
				out = html.UnescapeString(out)
				if format == "markdown" {
					out = html.UnescapeString(strings.ReplaceAll(out, "\\", ""))
				}
				for _, l := range lines {
					if !strings.Contains(out, l) {
						t.Errorf("%s lacks the text's %q", format, l)
					}
				}
			}
		})
	}
}

// TestReportStoredAsExport: report --db of a stored run writes the page
// report writes of its export, but for the title: the memory model of a
// kernel whose efficiency ncu's rule text gives (an estimate, which the
// database does not store) and the timeline's gaps and the calls behind
// them were once left out of the stored run's page, and a launch series
// was read after the records (other launches listed, sums in another
// order).
func TestReportStoredAsExport(t *testing.T) {
	t.Parallel()
	// The title names the run. The timeline's strips, per device and
	// stream, are stored (migration 0015): a stored run's page once drew
	// none.
	title := regexp.MustCompile(`(?m)^(<title>|<h1>).*\n`)
	// Each page is stamped with the minute it was made (Generated), and
	// the two are made apart: once at 17:55 and 17:56. The stamp is
	// normalised, not the test retried.
	generated := regexp.MustCompile(`<span>Generated [^<]*</span>`)
	files := []string{fx + "transpose.import.details.csv", "../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv",
		// Launch series read back in the export's order: each group's
		// list of launches, and its total (695.245 us summed in another
		// order once printed 695.25 where the export's said 695.24).
		"../../fixtures/pytorch2/pair.mlp.graph.csv",
		// A device's strip and its streams', a copy stream's among them.
		"../../fixtures/timeline/copy_stream.json.gz"}
	if !testing.Short() {
		// Its scope notes made from the whole trace (an optimizer step
		// seen on the host), kept with the run.
		files = append(files, "../../fixtures/timeline/train_small_graphs.json.gz", "../../fixtures/host12/mlp.default.json.gz")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			fromFile, errOut, code := run(t, "report", "--html", "-", f)
			if code != ExitOK {
				t.Fatalf("report: exit %d: %s", code, errOut)
			}
			fromDB := storedReport(t, f)
			norm := func(page string) string {
				return generated.ReplaceAllString(title.ReplaceAllString(page, ""), "<span>Generated <time></span>")
			}
			if !generated.MatchString(fromFile) || !generated.MatchString(fromDB) {
				t.Fatalf("no Generated stamp on the pages to normalise")
			}
			a, b := norm(fromFile), norm(fromDB)
			if a != b {
				al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
				for i := range min(len(al), len(bl)) {
					if al[i] != bl[i] {
						t.Fatalf("line %d: report of the export says\n%.300s\nreport --db says\n%.300s", i+1, al[i], bl[i])
					}
				}
				t.Fatalf("report of the export has %d lines, report --db %d", len(al), len(bl))
			}
		})
	}
}

// TestGateOrderIsAnalyzes: gate states the findings in analyze's order
// (longest kernel first, its findings by the share they could save), in
// SARIF as in text: it once listed them in capture order, each kernel's
// rules by name.
func TestGateOrderIsAnalyzes(t *testing.T) {
	t.Parallel()
	files := []string{fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	out, errOut, code := run(t, append([]string{"analyze", "-f", "json"}, files...)...)
	if code != ExitOK {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	var doc struct {
		Groups []struct {
			Name     string
			Findings []struct{ Rule string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, g := range doc.Groups {
		for _, f := range g.Findings {
			want = append(want, g.Name+" "+f.Rule)
		}
	}
	out, errOut, code = run(t, append([]string{"gate", "--fail-on", "all", "--min-share", "0", "-f", "sarif"}, files...)...)
	if code != ExitFailed {
		t.Fatalf("gate: exit %d: %s", code, errOut)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID     string `json:"ruleId"`
				Properties struct{ Kernel string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &sarif); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range sarif.Runs[0].Results {
		got = append(got, r.Properties.Kernel+" "+r.RuleID)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) < 5 {
		t.Errorf("gate's SARIF states\n%s\nanalyze\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// storedReport is report --db's HTML page of export f, ingested alone into
// a database of its own.
func storedReport(t *testing.T, f string) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, errOut, code := run(t, "ingest", "--db", db, f); code != ExitOK {
		t.Fatalf("ingest: exit %d: %s", code, errOut)
	}
	o, errOut, code := run(t, "report", "--db", db, "--html", "-")
	if code != ExitOK {
		t.Fatalf("report --db: exit %d: %s", code, errOut)
	}
	return o
}

// TestGateQuotesAnalyzes: gate states each group's finding as analyze
// does, message and gain, in every format (one verdict): it once quoted
// the first launch's finding where analyze quoted the longest launch's
// (series_v3: 32.1 sectors per request and a gain of 0.7511 in gate,
// 32.0 and 0.7509 in analyze and report).
func TestGateQuotesAnalyzes(t *testing.T) {
	t.Parallel()
	f := fx + "series_v3.runs5.details.csv"
	out, errOut, code := run(t, "analyze", "-f", "json", f)
	if code != ExitOK {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	var doc struct {
		Groups []struct {
			Name     string
			Findings []struct{ Rule, Message string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, g := range doc.Groups {
		for _, x := range g.Findings {
			want[g.Name+" "+x.Rule] = x.Message
		}
	}
	out, errOut, code = run(t, "gate", "--fail-on", "all", "--min-share", "0", "-f", "json", f)
	if code != ExitFailed {
		t.Fatalf("gate: exit %d: %s", code, errOut)
	}
	var gate struct {
		Checks []struct{ Kernel, Kind, Name, Message string }
	}
	if err := json.Unmarshal([]byte(out), &gate); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range gate.Checks {
		if c.Kind != "finding" {
			continue
		}
		n++
		msg, _, _ := strings.Cut(c.Message, " (on ")
		if w, ok := want[c.Kernel+" "+c.Name]; !ok || msg != w {
			t.Errorf("gate quotes %s %s as %q, analyze %q", c.Kernel, c.Name, msg, w)
		}
	}
	if n < 2 {
		t.Errorf("gate states %d findings, want 2 or more", n)
	}
}

// TestGateHeadroomEveryFormat: every check the gate renders states its
// kernel's headroom sentence where the verdict gives one, in each format
// that lists the check: the Markdown comment's failed list and text's
// passing checks (-v) once left it out, where JSON, JUnit and Markdown's
// table of the rest said it.
func TestGateHeadroomEveryFormat(t *testing.T) {
	t.Parallel()
	args := []string{"gate", "-v", "--fail-on", "uncoalesced-global", fx + "transpose.import.details.csv", fx + "transpose.source.cuda-sass.csv"}
	out, errOut, code := run(t, append(args, "--format", "json")...)
	if code != ExitFailed {
		t.Fatalf("gate -f json: exit %d: %s", code, errOut)
	}
	var doc struct {
		Checks []struct {
			Headroom string `json:"headroom"`
		} `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, c := range doc.Checks {
		if c.Headroom != "" {
			want++
		}
	}
	if want < 2 {
		t.Fatalf("%d checks carry a headroom: the test compares nothing", want)
	}
	// Text (-v), Markdown and JUnit list every check.
	for _, format := range []string{"text", "markdown", "junit"} {
		out, errOut, code := run(t, append(args, "--format", format)...)
		if code != ExitFailed {
			t.Fatalf("gate -f %s: exit %d: %s", format, code, errOut)
		}
		if got := strings.Count(out, "headroom: "); got != want {
			t.Errorf("-f %s states the headroom %d times, JSON on %d checks", format, got, want)
		}
	}
}
