package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/report/html"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/verdict"
)

// inputSets lists every fixture and public sample as profan is given
// them: each export alone, and each source page with the details page of
// the same report.
func inputSets(t *testing.T) [][]string {
	t.Helper()
	var sets [][]string
	var files []string
	for _, pat := range []string{"../../fixtures/*/*.csv", "../../fixtures/*/*.csv.gz", "../ingest/testdata/*/*.csv"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	sort.Strings(files)
	// A held-out set is read once, by the lead, at its time: until its
	// read switch is set, no test run reads it (its pages are left out).
	files = slices.DeleteFunc(files, func(f string) bool {
		return heldOutUnread(filepath.Base(filepath.Dir(f)))
	})
	have := map[string]bool{}
	for _, f := range files {
		have[f] = true
	}
	for _, f := range files {
		base := strings.TrimSuffix(strings.TrimSuffix(f, ".gz"), ".csv")
		if i := strings.Index(base, ".source."); i > 0 {
			stem := base[:i]
			// With a details page, and with a raw page, of the same report.
			for _, pages := range [][]string{{".import.details.csv", ".details.csv", ".details.csv.gz", ".full.details.csv"}, {".full.raw.csv", ".raw.csv.gz", ".metrics.raw.csv"}} {
				for _, d := range pages {
					if have[stem+d] {
						sets = append(sets, []string{stem + d, f})
						break
					}
				}
			}
			continue
		}
		sets = append(sets, []string{f})
	}
	return sets
}

// TestConsistency holds every verdict on every fixture and public sample
// to what the issue calls consistency: (a) a kernel's pattern agrees with
// its instructions' when the source page is given, and no finding
// contradicts ncu's per-instruction ideal; (b) exactly one limiter, the
// same in text, HTML and JSON; (c) analyze, gate --fail-on all and report
// give the same findings; (d) no ideal below one sector per request, no
// bank-conflict degree above 32, no tensor-core advice below CC 7.0, no
// finding reported twice; (e) one gain per fix, the same in every format;
// (f) no two lines contradict each other (checkContradictions). The
// speed-of-light pages are held to them in TestHeadroomNeverUnmarked, on
// its read (solPage).
func TestConsistency(t *testing.T) {
	t.Parallel()
	st, err := loadSettings("all", []string{"all"}, "", deviceOpts{})
	if err != nil {
		t.Fatal(err)
	}
	// Each input set is checked on its own, beside the others.
	var n atomic.Int64
	sol := 0
	t.Run("sets", func(t *testing.T) {
		for _, set := range inputSets(t) {
			if testing.Short() && (size(set) > shortSetSize || strings.HasSuffix(set[0], ".gz")) {
				continue
			}
			if solPage(set) {
				sol++ // checked on TestHeadroomNeverUnmarked's read
				continue
			}
			t.Run(strings.Join(set, "+"), func(t *testing.T) {
				t.Parallel()
				if consistent(t, set, st) {
					n.Add(1)
				}
			})
		}
	})
	t.Logf("%d input sets; %d speed-of-light pages checked in TestHeadroomNeverUnmarked", n.Load(), sol)
	if n.Load() < 40 && !testing.Short() {
		t.Errorf("only %d input sets analysed, want every fixture and sample", n.Load())
	}
}

// verdictsFromFiles reads exports and makes one verdict per run, every
// kernel's kept.
// shortSetSize is the largest input set TestConsistency reads with
// -short, compressed captures left out (a 60 KiB .gz is megabytes of
// trace): the small exports, which every importer and layout has, keep
// the edit-test loop fast; CI reads them all.
const shortSetSize = 12 << 10

func verdictsFromFiles(files []string, aopt analysis.Options) ([]*analysis.RunVerdict, error) {
	vs := analysis.NewStream(aopt, true)
	runs, err := readVerdicts(context.Background(), vs, files, ingest.Options{}, aopt, nil, nil, func(*analysis.Kernel) error { return nil })
	if err != nil {
		return nil, err
	}
	return vs.Finish(runs), nil
}

// solPage says whether set is a speed-of-light page with its source page
// (solSets' raw or details page): TestHeadroomNeverUnmarked reads each
// and holds that read to these checks too (consistentVerdicts), so that
// the page, a second of CPU to read, is read once for both tests. Held
// there, not by a cache both tests take from: that test runs before
// TestConsistency's parallel sets, so a cache would keep every page's
// verdicts alive (over a gigabyte) until this test took them.
func solPage(set []string) bool {
	if len(set) != 2 {
		return false
	}
	for _, s := range solSets {
		src := filepath.Join("../../fixtures", s.dir, s.export+".source.cuda-sass.csv.gz")
		for _, page := range []string{"raw", "details"} {
			if set[0] == filepath.Join("../../fixtures", s.dir, s.export+"."+page+".csv.gz") && set[1] == src {
				return true
			}
		}
	}
	return false
}

// consistent runs the checks on one input set; false when the set gives
// nothing to check.
func consistent(t *testing.T, set []string, st *settings) bool {
	vs, err := verdictsFromFiles(set, st.Opt)
	if err != nil || len(vs) == 0 {
		return false // error pages, truncated samples: the ingest tests hold those
	}
	return consistentVerdicts(t, set, vs)
}

// consistentVerdicts runs the checks on the verdicts vs of set (every
// kernel's kept, as verdictsFromFiles makes them); false when they give
// nothing to check.
func consistentVerdicts(t *testing.T, set []string, vs []*analysis.RunVerdict) bool {
	t.Helper()
	if len(vs) == 0 {
		return false
	}
	name := strings.Join(set, "+")
	var all []*analysis.Kernel
	for _, v := range vs {
		all = append(all, v.Kernels...)
	}
	if len(all) == 0 && len(vs[0].Findings) == 0 {
		return false
	}
	for _, a := range all {
		checkPatterns(t, name, a)
		checkLimiter(t, name, a)
		checkBounds(t, name, a)
	}
	r := render(t, all)
	checkRendered(t, name, all, r)
	checkFixGains(t, name, r)
	checkGroups(t, name, all)
	checkContradictions(t, name, all, r)
	// The commands read the input again, three times: on two shared
	// cores, only the smaller exports (every importer and layout has
	// some) go through them; the large ones are held by (a), (b), (d).
	if size(set) <= 256<<10 || !testing.Short() && os.Getenv("PROFAN_CONSISTENCY_ALL") != "" {
		checkCommands(t, name, set, vs)
	}
	return true
}

func size(set []string) int64 {
	var n int64
	for _, f := range set {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// checkPatterns is (a) and the first half of (d).
func checkPatterns(t *testing.T, name string, a *analysis.Kernel) {
	t.Helper()
	id := fmt.Sprintf("%s kernel %s (%s)", name, a.Record.ID, a.Record.DisplayName())
	m := a.Model
	for _, sp := range []spaceOp{{m.GlobalLoad, "global", "load"}, {m.GlobalStore, "global", "store"}, {m.SharedLoad, "shared", "load"}, {m.SharedStore, "shared", "store"}} {
		worst, n := worstInstruction(m.Instructions, sp)
		if sp.acc != nil {
			checkAccessBounds(t, id, a.Record.DisplayName(), sp)
		}
		if n == 0 || sp.acc == nil {
			continue
		}
		switch {
		case worst != nil && sp.acc.Pattern.Kind != worst.Pattern.Kind:
			t.Errorf("%s: %s %s is %s, its worst instruction %s %s", id, sp.space, sp.op, sp.acc.Pattern.Kind, worst.SASS, worst.Pattern.Kind)
		case worst == nil && sp.acc.Pattern.Kind != gpumodel.Coalesced && sp.acc.Pattern.Kind != gpumodel.Broadcast:
			t.Errorf("%s: %s %s is %s, yet every instruction is at its ideal", id, sp.space, sp.op, sp.acc.Pattern.Kind)
		}
		if worst == nil {
			checkNoAccessFinding(t, id, a, sp)
		}
	}
}

// spaceOp is one of a model's four accesses: its summary, memory space and
// operation.
type spaceOp struct {
	acc       *analysis.Access
	space, op string
}

// worstInstruction returns the instruction of sp's space and operation
// furthest above its ideal sectors (nil when none is above by more than
// 5%), and how many instructions are of that space and operation.
func worstInstruction(ins []analysis.Instruction, sp spaceOp) (worst *analysis.Instruction, n int) {
	for i := range ins {
		in := &ins[i]
		if in.Space != sp.space || in.Operation != sp.op {
			continue
		}
		n++
		if in.Sectors > in.IdealSectors*1.05 && (worst == nil || in.Sectors-in.IdealSectors > worst.Sectors-worst.IdealSectors) {
			worst = in
		}
	}
	return worst, n
}

// checkAccessBounds holds sp's access summary to what a real capture can
// show: a global ideal of one sector per request or more, nothing
// impossible (but for a held-out set's logged gap, consistencyGaps), at
// most a 32-way bank conflict.
func checkAccessBounds(t *testing.T, id, kernel string, sp spaceOp) {
	t.Helper()
	if sp.space == "global" && sp.acc.IdealSectorsPerRequest < 1 {
		t.Errorf("%s: %s %s ideal %.2f sectors per request, below one sector", id, sp.space, sp.op, sp.acc.IdealSectorsPerRequest)
	}
	for _, m := range sp.acc.Implausible {
		// Every fixture is a real capture: nothing in it is impossible.
		if strings.HasPrefix(m, "impossible") && knownContradiction(id, kernel, "impossible "+sp.space+" "+sp.op) {
			t.Logf("known gap: %s: %s %s: a real capture called %s", id, sp.space, sp.op, m)
		} else if strings.HasPrefix(m, "impossible") {
			t.Errorf("%s: %s %s: a real capture called %s", id, sp.space, sp.op, m)
		}
	}
	if sp.acc.Pattern.Ways > 32 {
		t.Errorf("%s: %s %s a %.0f-way bank conflict, more than 32", id, sp.space, sp.op, sp.acc.Pattern.Ways)
	}
}

// checkNoAccessFinding: where every instruction of sp's space and
// operation is at its ideal, no finding says that access is uncoalesced
// or bank-conflicted.
func checkNoAccessFinding(t *testing.T, id string, a *analysis.Kernel, sp spaceOp) {
	t.Helper()
	for _, f := range a.Findings {
		if sp.space == "global" && f.Rule == "uncoalesced-global" && strings.Contains(f.Message, "global "+sp.op+"s ") {
			t.Errorf("%s: %s contradicts ncu's per-instruction ideal (every %s %s at its ideal): %s", id, f.Rule, sp.space, sp.op, f.Message)
		}
		if sp.space == "shared" && f.Rule == "shared-bank-conflict" && strings.Contains(f.Message, "shared "+sp.op+"s ") {
			t.Errorf("%s: %s contradicts ncu's per-instruction ideal (every %s %s at its ideal): %s", id, f.Rule, sp.space, sp.op, f.Message)
		}
	}
}

// checkLimiter is (b) for one verdict: one limiter, and at most one
// roofline finding, the one the limiter names.
func checkLimiter(t *testing.T, name string, a *analysis.Kernel) {
	t.Helper()
	var bounds []string
	for _, f := range a.Findings {
		switch f.Rule {
		case "memory-bound", "compute-bound", "latency-bound":
			bounds = append(bounds, strings.TrimSuffix(f.Rule, "-bound"))
		}
	}
	if len(bounds) > 1 || (len(bounds) == 1 && bounds[0] != a.Limiter.Bound()) {
		t.Errorf("%s kernel %s: roofline findings %v, limiter %q (%s)", name, a.Record.ID, bounds, a.Limiter, a.Limiter.Bound())
	}
	if j := report.ToJSONLimiter(a.Limiter); j.Name != a.Limiter.String() {
		t.Errorf("%s kernel %s: JSON limiter %q, verdict %q", name, a.Record.ID, j.Name, a.Limiter)
	}
}

// checkBounds is the rest of (d).
func checkBounds(t *testing.T, name string, a *analysis.Kernel) {
	t.Helper()
	major, _, err := gpumodel.ParseCC(a.Record.CC)
	old := err == nil && major < 7
	seen := map[string]bool{}
	for _, f := range a.Findings {
		key := f.Rule + "\x00" + f.Message
		if seen[key] {
			t.Errorf("%s kernel %s: %s reported twice: %s", name, a.Record.ID, f.Rule, f.Message)
		}
		seen[key] = true
		if old && (f.Rule == "tensor-cores-unused" || strings.Contains(strings.ToLower(f.Advice), "tensor core")) {
			t.Errorf("%s kernel %s (cc %s): tensor-core advice below CC 7.0: %s", name, a.Record.ID, a.Record.CC, f.Advice)
		}
		if !math.IsNaN(f.Gain) && (f.Gain < 0 || f.Gain > 1) {
			t.Errorf("%s kernel %s: %s gain %v outside [0, 1]", name, a.Record.ID, f.Rule, f.Gain)
		}
	}
}

// checkGroups is (d) for the summary: a rule holds for at most every
// launch of its group, and saves at most the whole capture.
func checkGroups(t *testing.T, name string, ks []*analysis.Kernel) {
	t.Helper()
	gr := analysis.NewGrouper(false)
	for _, a := range ks {
		gr.Add(a)
	}
	for _, g := range gr.Groups() {
		for _, f := range g.Findings {
			if f.Launches > g.Launches {
				t.Errorf("%s group %s: %s on %d of %d launches", name, g.Name, f.Rule, f.Launches, g.Launches)
			}
			if !math.IsNaN(f.CaptureGain) && (f.CaptureGain < 0 || f.CaptureGain > 1) {
				t.Errorf("%s group %s: %s saves %.2f of the capture", name, g.Name, f.Rule, f.CaptureGain)
			}
		}
	}
}

// rendered is one input set's verdicts in each format the checks read:
// made once, (b), (e) and (f) read the same pages.
type rendered struct {
	text, markdown, html string
	json                 []byte // every launch listed
}

// render writes ks as analyze does (the verdict made with every rule and
// the default thresholds) in text, Markdown, HTML and JSON.
func render(t *testing.T, ks []*analysis.Kernel) rendered {
	t.Helper()
	var hb, tb, mb, jb bytes.Buffer
	if err := html.Write(&hb, &html.Report{Kernels: ks}); err != nil {
		t.Fatal(err)
	}
	tw, _ := report.New("text", &tb, report.Options{})
	mw, _ := report.New("markdown", &mb, report.Options{})
	jw, _ := report.New("json", &jb, report.Options{Launches: true})
	for _, a := range ks {
		jw.Kernel(a)
	}
	v := testVerdict(ks)
	tw.End(v)
	mw.End(v)
	jw.End(v)
	return rendered{text: tb.String(), markdown: mb.String(), html: hb.String(), json: jb.Bytes()}
}

// checkRendered is (b) across formats: the text, HTML and JSON of the
// same verdicts state the same limiters.
func checkRendered(t *testing.T, name string, ks []*analysis.Kernel, r rendered) {
	t.Helper()
	want := map[string]int{}
	for _, a := range ks {
		if a.Limiter.Known() {
			want[a.Limiter.String()]++
		}
	}
	for l, n := range want {
		if got := strings.Count(r.html, "<span>limiter: "+l+"</span>"); got != n {
			t.Errorf("%s: HTML states limiter %q %d times, the verdicts %d", name, l, got, n)
		}
	}
	for _, line := range strings.Split(r.text, "\n") {
		l, ok := strings.CutPrefix(strings.TrimSpace(line), "limiter: ")
		if !ok {
			continue
		}
		l, _, _ = strings.Cut(l, " (")
		if want[l] == 0 {
			t.Errorf("%s: text states limiter %q, no verdict does", name, l)
		}
	}
	if strings.Contains(r.text, "-bound side") {
		t.Errorf("%s: text decides a roofline side of its own", name)
	}
	var doc struct {
		Kernels []struct {
			ID      string             `json:"id"`
			Limiter report.JSONLimiter `json:"limiter"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal(r.json, &doc); err != nil {
		t.Fatalf("%s: json: %v", name, err)
	}
	got := map[string]int{}
	for _, k := range doc.Kernels {
		if k.Limiter.Name != "" {
			got[k.Limiter.Name]++
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: JSON limiters %v, verdicts %v", name, got, want)
	}
}

// checkCommands is (c): analyze, gate --fail-on all and report, run as
// commands on the same input, state the same findings.
func checkCommands(t *testing.T, name string, set []string, vs []*analysis.RunVerdict) {
	t.Helper()
	want, perGroup := verdictRules(vs)
	fromAnalyze, ok := analyzeRules(t, name, set)
	if !ok {
		return
	}
	fromGate, ok := gateRules(t, name, set)
	if !ok {
		return
	}
	fromReport, ok := htmlRules(t, name, set, want, fromAnalyze)
	if !ok {
		return
	}
	for r, n := range fromReport {
		if n == 0 {
			delete(fromReport, r)
		}
	}
	if fmt.Sprint(fromAnalyze) != fmt.Sprint(want) {
		t.Errorf("%s: analyze states %v, the verdicts %v", name, fromAnalyze, want)
	}
	if fmt.Sprint(fromGate) != fmt.Sprint(perGroup) {
		t.Errorf("%s: gate --fail-on all fails on %v, the verdicts' kernel groups %v", name, fromGate, perGroup)
	}
	// The HTML report groups the launches of a kernel, so it states each
	// rule once per group: compare which rules, not how often. It states
	// the run-level findings too (it once left them out).
	if fmt.Sprint(keys(fromReport)) != fmt.Sprint(keys(want)) {
		t.Errorf("%s: report shows %v, the verdicts %v", name, keys(fromReport), keys(want))
	}
}

// verdictRules counts the findings of vs by rule two ways: every finding
// (all), and once per kernel name it holds on and once per run-level
// finding (perGroup: the gate checks kernel groups, and with --min-share 0
// gates every group).
func verdictRules(vs []*analysis.RunVerdict) (all, perGroup map[string]int) {
	all, perGroup = map[string]int{}, map[string]int{}
	seen := map[[2]string]bool{}
	for _, v := range vs {
		for _, a := range v.Kernels {
			for _, f := range a.Findings {
				all[f.Rule]++
				if k := [2]string{a.Record.DisplayName(), f.Rule}; !seen[k] {
					seen[k] = true
					perGroup[f.Rule]++
				}
			}
		}
		for _, f := range v.Findings {
			all[f.Rule]++
			perGroup[f.Rule]++
		}
	}
	return all, perGroup
}

// analyzeRules counts by rule the findings analyze's JSON of set states;
// false when analyze failed.
func analyzeRules(t *testing.T, name string, set []string) (map[string]int, bool) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"analyze", "--format", "json", "--launches"}, set...)...)
	if code != ExitOK {
		t.Errorf("%s: analyze exit %d: %s", name, code, errOut)
		return nil, false
	}
	counts, err := ruleCounts(out)
	if err != nil {
		t.Fatalf("%s: analyze json: %v", name, err)
	}
	return counts, true
}

// gateRules counts by rule the finding checks gate --fail-on all fails on
// set; false when the gate could not run.
func gateRules(t *testing.T, name string, set []string) (map[string]int, bool) {
	t.Helper()
	out, errOut, code := run(t, append([]string{"gate", "--fail-on", "all", "--min-share", "0", "--allow-app-errors", "--format", "json"}, set...)...)
	if code == ExitError {
		t.Errorf("%s: gate exit %d: %s", name, code, errOut)
		return nil, false
	}
	var g struct {
		Checks []struct{ Kind, Name, Status string } `json:"checks"`
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatalf("%s: gate json: %v", name, err)
	}
	counts := map[string]int{}
	for _, c := range g.Checks {
		if (c.Kind == "finding" || c.Kind == "run-finding") && c.Status == "fail" {
			counts[c.Name]++
		}
	}
	return counts, true
}

// htmlRules counts how often report's HTML page of set names each rule of
// want and fromAnalyze; false when report failed.
func htmlRules(t *testing.T, name string, set []string, want, fromAnalyze map[string]int) (map[string]int, bool) {
	t.Helper()
	htmlOut := filepath.Join(t.TempDir(), "r.html")
	if _, errOut, code := run(t, append([]string{"report", "--html", htmlOut}, set...)...); code != ExitOK {
		t.Errorf("%s: report exit %d: %s", name, code, errOut)
		return nil, false
	}
	b, _ := os.ReadFile(htmlOut)
	counts := map[string]int{}
	for _, rules := range []map[string]int{want, fromAnalyze} {
		for r := range rules {
			counts[r] = strings.Count(string(b), `<code class="rule">`+r+`</code>`)
		}
	}
	return counts, true
}

// keys returns m's keys, sorted.
func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ruleCounts counts the findings of each rule, kernels' and runs', in the
// JSON output of analyze.
func ruleCounts(out string) (map[string]int, error) {
	var doc struct {
		Kernels []struct {
			Findings []struct{ Rule string } `json:"findings"`
		} `json:"kernels"`
		Runs []struct {
			Findings []struct{ Rule string } `json:"findings"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		return nil, err
	}
	n := map[string]int{}
	for _, k := range doc.Kernels {
		for _, f := range k.Findings {
			n[f.Rule]++
		}
	}
	for _, r := range doc.Runs {
		for _, f := range r.Findings {
			n[f.Rule]++
		}
	}
	return n, nil
}

// gainRE finds a kernel-level gain as text, Markdown and HTML state it.
var gainRE = regexp.MustCompile(`(?:(?:est\. gain|estimated gain) (\d+)% of kernel time|\((\d+)% of the kernel's)`)

// checkFixGains holds (e): the JSON states each fix's gain once (findings
// of one fix are one finding, so no two findings of a rule on a kernel
// carry the same gain), and text, Markdown and HTML state no kernel gain
// the JSON does not; HTML lists every kernel, so all of them. Text and
// Markdown summarise a capture of many kernels by group.
func checkFixGains(t *testing.T, name string, r rendered) {
	t.Helper()
	var doc struct {
		Kernels []struct {
			ID       string `json:"id"`
			Name     string `json:"name"`
			Findings []struct {
				Rule string   `json:"rule"`
				Gain *float64 `json:"estimated_gain"`
			} `json:"findings"`
		} `json:"kernels"`
	}
	if err := json.Unmarshal(r.json, &doc); err != nil {
		t.Fatalf("%s: json: %v", name, err)
	}
	want := map[string]bool{}
	for _, k := range doc.Kernels {
		seen := map[string]bool{}
		for _, f := range k.Findings {
			if f.Gain == nil {
				continue
			}
			key := fmt.Sprintf("%s %v", f.Rule, *f.Gain)
			if seen[key] && knownContradiction(name, k.Name, f.Rule) {
				t.Logf("known gap: %s kernel %s: JSON states %s's gain %.2f twice", name, k.ID, f.Rule, *f.Gain)
			} else if seen[key] {
				t.Errorf("%s kernel %s: JSON states %s's gain %.2f twice", name, k.ID, f.Rule, *f.Gain)
			}
			seen[key] = true
			want[fmt.Sprintf("%.0f", *f.Gain*100)] = true
		}
	}
	for _, out := range []struct{ format, s string }{{"text", r.text}, {"markdown", r.markdown}, {"html", r.html}} {
		got := map[string]bool{}
		for _, m := range findGains(out.s) {
			got[m] = true
		}
		extra := false
		for g := range got {
			extra = extra || !want[g]
		}
		if extra || out.format == "html" && fmt.Sprint(keysB(got)) != fmt.Sprint(keysB(want)) {
			t.Errorf("%s: %s states kernel gains %v%%, JSON %v%%", name, out.format, keysB(got), keysB(want))
		}
	}
}

// findGains returns the percentages gainRE finds in s. A gain is stated
// within one line, so only the lines with "% of" go through the regexp:
// the same matches, without running it over megabytes of HTML.
func findGains(s string) []string {
	var out []string
	for s != "" {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if !strings.Contains(line, "% of") {
			continue
		}
		for _, m := range gainRE.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1]+m[2])
		}
	}
	return out
}

func keysB(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// testVerdict is the verdict on ks, made as analyze makes it (every rule,
// the default thresholds).
func testVerdict(ks []*analysis.Kernel) *verdict.Verdict {
	e, _ := rules.NewEngine("")
	b := analysis.NewBuilder(true, e)
	var runs []*profan.Run
	seen := map[*profan.Run]bool{}
	for _, a := range ks {
		b.Add(a)
		if a.Run != nil && !seen[a.Run] {
			seen[a.Run] = true
			runs = append(runs, a.Run)
		}
	}
	return b.Finish(runs, nil)
}
