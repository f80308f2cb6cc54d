package html

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"image"
	"image/png"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/golden"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/verdict"
)

const fixtures = "../../../fixtures/ncu"

// load analyses fixture files the way profan analyze does: source pages
// attached to their kernels, every rule run.
func load(t testing.TB, names ...string) []*analysis.Kernel {
	t.Helper()
	var paths []string
	for _, n := range names {
		paths = append(paths, filepath.Join(fixtures, n))
	}
	src, files, err := ingest.SplitSourcePages(paths)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := rules.NewEngine("all")
	if err != nil {
		t.Fatal(err)
	}
	var out []*analysis.Kernel
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		run, err := ingest.Read(fh, f, ingest.Options{}, ingest.Sink{Kernel: func(run *profan.Run, k *profan.Kernel) error {
			src.AttachRun(nil, k)
			out = append(out, analysis.Analyze(run, k, analysis.Options{Rules: eng}))
			return nil
		}})
		fh.Close()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		// Show the path from the module root, whatever the test's
		// working directory.
		run.Source = "fixtures/ncu/" + filepath.Base(f)
	}
	if len(out) == 0 {
		t.Fatalf("%v: no kernels", names)
	}
	return out
}

// transpose is the transpose example with its source page.
func transpose(t testing.TB) []*analysis.Kernel {
	return load(t, "transpose.import.details.csv", "transpose.source.cuda-sass.csv")
}

// h200 is every H200 capture with FLOP counters, and the transposes,
// which have none.
func h200(t testing.TB) []*analysis.Kernel {
	return load(t, "matmul.metrics.details.csv", "misc.metrics.details.csv", "saxpy.metrics.details.csv",
		"indirect.metrics.details.csv", "transpose.metrics.details.csv")
}

// series is the transpose series of fixtures: builds v0 (naive), v1
// (tiled), v2 (padded) and v3 (naive again), five launches each, as a
// trend of one metric, each launch one run. The change points are given,
// not computed, so that the goldens pin this package's drawing only.
func series(t testing.TB, metric string, cps ...int) Trend {
	t.Helper()
	tr := Trend{Metric: metric, ChangePoints: cps}
	if d, ok := metrics.ByName(metric); ok {
		tr.Unit = d.Unit
	}
	for v := 0; v < 4; v++ {
		for i, a := range load(t, fmt.Sprintf("series_v%d.runs5.details.csv", v)) {
			x, _ := a.Value(metric)
			tr.Kernel = a.Record.DisplayName()
			tr.Points = append(tr.Points, TrendPoint{Run: int64(len(tr.Points) + 1), Label: fmt.Sprintf("v%d.%d", v, i+1), Value: x})
		}
	}
	return tr
}

func full(t testing.TB) *Report {
	return &Report{
		Title:     "profan report: transpose and H200 examples",
		Generated: "2025-01-02 03:04:05 UTC",
		Kernels: append(transpose(t), load(t, "matmul.metrics.details.csv", "misc.metrics.details.csv",
			"saxpy.metrics.details.csv", "indirect.metrics.details.csv")...),
		Trends: []Trend{series(t, "duration", 5, 10, 15), series(t, "gst_transactions_per_request", 5, 15)},
	}
}

func render(t testing.TB, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRooflineSVG(t *testing.T) {
	ks := h200(t)
	got := rooflineSVG(ks, ks[0].Spec)
	golden.Check(t, "testdata/roofline.svg.golden", []byte(got))
	var placed, none int
	for _, a := range ks {
		switch _, _, p := rooflinePlace(a); p {
		case onRoofline:
			placed++
		case noFlops:
			none++
		}
	}
	if placed < 5 || none < 5 {
		t.Errorf("placed %d kernels, %d without FLOPs; the fixtures have at least 5 of each", placed, none)
	}
	// Every placed kernel has its numbered label.
	for i, a := range ks {
		if _, _, p := rooflinePlace(a); p == onRoofline && !strings.Contains(string(got), fmt.Sprintf(">%d</text>", i+1)) {
			t.Errorf("no label %d for %s", i+1, a.Record.Name)
		}
	}
	for _, want := range []string{"FP32 peak", "FP64 peak", "ridge point", "DRAM 4.8 TB/s"} {
		if !strings.Contains(string(got), want) {
			t.Errorf("roofline lacks %q", want)
		}
	}
}

func TestEfficiencySVG(t *testing.T) {
	ks := transpose(t)
	for _, tc := range []struct {
		kernel, file string
	}{
		{"transposeNaive", "efficiency-naive"},
		{"transposeCoalesced", "efficiency-coalesced"},
	} {
		t.Run(tc.kernel, func(t *testing.T) {
			var a *analysis.Kernel
			for _, k := range ks {
				if strings.HasPrefix(k.Record.Name, tc.kernel+"(") {
					a = k
				}
			}
			if a == nil {
				t.Fatalf("no kernel %s", tc.kernel)
			}
			golden.Check(t, "testdata/"+tc.file+".svg.golden", []byte(efficiencySVG(a)))
		})
	}
	if got := rooflineSVG(ks, &gpumodel.Spec{Name: "no peaks"}); got != "" {
		t.Errorf("roofline of a GPU without peaks: got %q, want no chart", got)
	}
	if got := efficiencySVG(&analysis.Kernel{Record: profan.NewKernel()}); got != "" {
		t.Errorf("kernel without memory counters: got %q, want no chart", got)
	}
}

func TestTrendSVG(t *testing.T) {
	dur := series(t, "duration", 5, 10, 15)
	got := string(trendSVG(dur))
	golden.Check(t, "testdata/trend-duration.svg.golden", []byte(got))
	if n := strings.Count(got, ">change "); n != 3 {
		t.Errorf("%d change labels, want 3", n)
	}
	golden.Check(t, "testdata/trend-gst.svg.golden", []byte(trendSVG(series(t, "gst_transactions_per_request", 5, 15))))

	// Degenerate series draw without panicking.
	for _, tr := range []Trend{
		{Metric: "duration", Unit: "s"},
		{Metric: "duration", Unit: "s", Points: []TrendPoint{{Run: 1, Value: 1e-6}}},
		{Metric: "x", Points: []TrendPoint{{Run: 1, Value: math.NaN()}, {Run: 2, Value: 3}, {Run: 3, Value: 3}}, ChangePoints: []int{0, 2, 2, 9}},
	} {
		if s := trendSVG(tr); !strings.HasPrefix(string(s), "<svg") {
			t.Errorf("%+v: got %q", tr, s)
		}
	}
}

func TestWriteGolden(t *testing.T) {
	golden.Check(t, "testdata/transpose.html.golden", []byte(render(t, &Report{
		Title: "profan report: transpose", Generated: "2025-01-02 03:04:05 UTC", Kernels: transpose(t),
	})))
	got := render(t, full(t))
	golden.Check(t, "testdata/full.html.golden", []byte(got))
	if again := render(t, full(t)); again != got {
		t.Error("two renderings of one report differ")
	}
	for _, want := range []string{
		`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;`,
		`id="roofline"`, `id="trends"`, "Not on the roofline (no floating-point work)",
		"estimated gain 88% of kernel time", "gain unknown",
		"<code class=\"where\">/tmp/profan/transpose.cu:41</code>",
		`<span class="sevlabel">`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	checkSelfContained(t, got)
}

func TestWriteEmpty(t *testing.T) {
	got := render(t, &Report{})
	if !strings.Contains(got, "No kernels.") || !strings.Contains(got, "<title>profan report</title>") {
		t.Errorf("empty report:\n%s", got)
	}
	// A kernel with no metrics, no GPU, no model.
	k := profan.NewKernel()
	k.Name = "bare"
	a := analysis.Analyze(&profan.Run{Tool: profan.ToolNCU}, k, analysis.Options{})
	got = render(t, &Report{Kernels: []*analysis.Kernel{a}})
	for _, want := range []string{"bare", "unknown GPU", "GPU unknown, no roofs", "No findings.", "no sector or efficiency counters"} {
		if !strings.Contains(got, want) {
			t.Errorf("report of a bare kernel lacks %q", want)
		}
	}
}

// The markup the report is made of; anything else is an injection.
var allowedTags = map[string]bool{
	"!doctype": true, "html": true, "head": true, "meta": true, "title": true, "style": true, "body": true,
	"header": true, "h1": true, "h2": true, "h3": true, "h4": true, "p": true, "span": true, "code": true,
	"nav": true, "a": true, "main": true, "section": true, "div": true, "table": true, "thead": true,
	"tbody": true, "tr": true, "th": true, "td": true, "small": true, "i": true, "b": true, "br": true,
	"figure": true, "article": true, "dl": true, "dt": true, "dd": true, "ol": true, "ul": true, "li": true,
	"footer": true, "svg": true, "g": true, "path": true, "rect": true, "circle": true, "line": true,
	"text": true, "desc": true,
}

var urlRE = regexp.MustCompile(`^(https?:|//|javascript:|data:)`)

// checkSelfContained fails on markup the report never writes: an element
// outside the allowlist, an event handler attribute, a link or source
// that is not a fragment, a url() in CSS. It tokenizes the tags the way
// an HTML parser does: text holds no "<" but as the start of a tag, and an
// attribute value runs to its closing quote.
func checkSelfContained(t *testing.T, doc string) {
	t.Helper()
	for i := 0; i < len(doc); i++ {
		if doc[i] != '<' {
			continue
		}
		name, k := tagName(doc, i+1)
		if !allowedTags[name] {
			t.Errorf("unexpected element <%s> at %d: %q", name, i, doc[i:min(len(doc), i+60)])
		}
		// Attributes.
		for k < len(doc) && doc[k] != '>' {
			if doc[k] == ' ' || doc[k] == '\n' || doc[k] == '/' {
				k++
				continue
			}
			var attr, val string
			attr, val, k = readAttr(t, doc, k)
			checkAttr(t, name, attr, val)
		}
		if name == "style" {
			// Skip the style sheet: CSS text, checked here.
			e := strings.Index(doc[k:], "</style>")
			if e < 0 {
				t.Fatal("unterminated style")
			}
			css := strings.ToLower(doc[k : k+e])
			if strings.Contains(css, "url(") || strings.Contains(css, "@import") {
				t.Error("the style sheet fetches something")
			}
			i = k + e
		}
	}
}

// tagName reads the name of the tag whose "<" is before j (after a "/"
// of a closing tag), lower case, and where its name ends.
func tagName(doc string, j int) (string, int) {
	if j < len(doc) && doc[j] == '/' {
		j++
	}
	k := j
	for k < len(doc) && (isAlnum(doc[k]) || doc[k] == '!' || doc[k] == '-') {
		k++
	}
	return strings.ToLower(doc[j:k]), k
}

// readAttr reads the attribute at a: its name, lower case, its value
// (quoted or not, "" without one), and where it ends.
func readAttr(t *testing.T, doc string, a int) (attr, val string, k int) {
	t.Helper()
	k = a
	for k < len(doc) && doc[k] != '=' && doc[k] != ' ' && doc[k] != '>' && doc[k] != '/' {
		k++
	}
	attr = strings.ToLower(doc[a:k])
	if k >= len(doc) || doc[k] != '=' {
		return attr, "", k
	}
	k++
	if k < len(doc) && (doc[k] == '"' || doc[k] == '\'') {
		q := doc[k]
		e := strings.IndexByte(doc[k+1:], q)
		if e < 0 {
			t.Fatalf("unterminated attribute %s at %d", attr, a)
		}
		return attr, doc[k+1 : k+1+e], k + e + 2
	}
	e := k
	for e < len(doc) && doc[e] != ' ' && doc[e] != '>' {
		e++
	}
	return attr, doc[k:e], e
}

// checkAttr fails on an event handler, a reference that is not a
// fragment, an SVG namespace that is not SVG's, a URL in any attribute.
func checkAttr(t *testing.T, name, attr, val string) {
	t.Helper()
	if strings.HasPrefix(attr, "on") {
		t.Errorf("event handler attribute %s=%q in <%s>", attr, val, name)
	}
	if (attr == "href" || attr == "src" || attr == "action" || attr == "xlink:href") && !strings.HasPrefix(val, "#") {
		t.Errorf("reference %s=%q in <%s>", attr, val, name)
	}
	if attr == "xmlns" && val != "http://www.w3.org/2000/svg" {
		t.Errorf("xmlns=%q", val)
	}
	if urlRE.MatchString(val) && attr != "xmlns" {
		t.Errorf("URL in %s=%q", attr, val)
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

const hostile = `</title><script>alert(1)</script><img src=x onerror=alert(2)>`

// hostileReport is the transpose report with every string that comes from
// an export replaced by markup.
func hostileReport(t testing.TB) *Report {
	ks := transpose(t)
	a := ks[2] // transposeNaive: has a finding with a location
	if len(a.Findings) == 0 || len(a.Findings[0].Locations) == 0 {
		t.Fatal("fixture changed: transposeNaive has no located finding")
	}
	k := *a.Record
	k.Name, k.Demangled = hostile, ""
	k.ID = `"><svg onload=alert(3)>`
	a.Record = &k
	a.Run = &profan.Run{Tool: profan.ToolNCU, Source: `run<script>alert(4)</script>.csv`}
	f := &a.Findings[0]
	f.Rule = `<b onmouseover="alert(5)">rule</b>`
	f.Message = `<img src=x onerror=alert(6)> message & more`
	f.Advice = `<a href="javascript:alert(7)">click</a>`
	f.Locations[0].File = `"><iframe src=//evil.example/>.cu`
	f.Locations[0].SASS = `<script>alert(8)</script>`
	a.Model.GlobalStore.Pattern.Reasons = []string{`</style><script>alert(9)</script>`, `<svg/onload=alert(10)>`}
	if len(a.Model.Instructions) > 0 {
		a.Model.Instructions[0].SASS = `<script>alert(11)</script>`
		a.Model.Instructions[0].Pattern.Reasons = []string{`" onmouseover="alert(12)`}
	}
	return &Report{
		Title:     hostile,
		Generated: `<script>alert(13)</script>`,
		Kernels:   ks,
		Trends: []Trend{{Kernel: hostile, Metric: `<script>m</script>`, Unit: `<img src=x onerror=alert(14)>`,
			Points: []TrendPoint{{Run: 1, Label: hostile, Value: 1}, {Run: 2, Label: `<i>`, Value: 2}, {Run: 3, Value: 2}}, ChangePoints: []int{1}}},
	}
}

func TestHostileName(t *testing.T) {
	got := render(t, hostileReport(t))
	low := strings.ToLower(got)
	for _, bad := range []string{"<script", "<img", "<iframe", "<svg onload", "<svg/onload", "<b onmouseover", `" onmouseover`, "javascript:alert(7)\""} {
		if strings.Contains(low, bad) {
			i := strings.Index(low, bad)
			t.Errorf("output contains %q: ...%s...", bad, got[max(0, i-80):min(len(got), i+80)])
		}
	}
	checkSelfContained(t, got)
	esc := `&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;`
	if n := strings.Count(got, esc); n < 4 {
		t.Errorf("escaped hostile name appears %d times, want it in the title, the summary, the card and the trend", n)
	}
	for _, want := range []string{
		`<title>` + esc + `</title>`,
		`&lt;img src=x onerror=alert(6)&gt; message &amp; more`,
		`&lt;script&gt;alert(8)&lt;/script&gt;`,
		`&lt;/style&gt;&lt;script&gt;alert(9)&lt;/script&gt;`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks the escaped text %q", want)
		}
	}
	// The trend chart escapes too.
	svg := string(trendSVG(hostileReport(t).Trends[0]))
	if strings.Contains(svg, "<script") || strings.Contains(svg, "<img") || strings.Contains(svg, "<i>") {
		t.Errorf("trend SVG carries markup:\n%s", svg)
	}
}

// chromium returns the browser to test with, or skips.
func chromium(t *testing.T) string {
	if testing.Short() {
		t.Skip("starts Chromium: runs without -short, as CI does")
	}
	bin := os.Getenv("PROFAN_CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no chromium at %s (set PROFAN_CHROMIUM): %v", bin, err)
	}
	return bin
}

func runChromium(t *testing.T, bin, dir string, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir=" + filepath.Join(dir, "profile")}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, tail(stderr.String(), 2000))
	}
	return stdout.Bytes()
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// TestChromium renders the report in headless Chromium: the screenshot
// must show a page of text and charts, and the DOM must hold the kernel
// names, the hostile one as text, and no script.
func TestChromium(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	r := full(t)
	hr := hostileReport(t)
	r.Kernels = append(r.Kernels, hr.Kernels[2])
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, []byte(render(t, r)), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + page
	shot := filepath.Join(dir, "shot.png")
	const w, h = 1280, 2400
	runChromium(t, bin, dir, "--screenshot="+shot, fmt.Sprintf("--window-size=%d,%d", w, h), url)
	if p := os.Getenv("PROFAN_SCREENSHOT"); p != "" {
		if b, err := os.ReadFile(shot); err == nil {
			os.WriteFile(p, b, 0o644)
		}
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("screenshot is %dx%d, want %dx%d", b.Dx(), b.Dy(), w, h)
	}
	colours, dark := pixels(img)
	if colours < 100 {
		t.Errorf("screenshot has %d distinct colours; a page of text and charts has hundreds", colours)
	}
	if dark < 0.003 || dark > 0.3 {
		t.Errorf("dark pixels are %.2f%% of the screenshot, want text on white (0.3%% to 30%%)", dark*100)
	}
	t.Logf("screenshot: %d colours, %.1f%% dark pixels", colours, dark*100)

	dom := string(runChromium(t, bin, dir, "--dump-dom", url))
	if !strings.Contains(dom, "<h1>") {
		t.Fatalf("DOM dump without the page:\n%s", tail(dom, 2000))
	}
	for _, a := range r.Kernels[:len(r.Kernels)-1] {
		if name := a.Record.DisplayName(); !strings.Contains(dom, strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(name)) {
			t.Errorf("DOM lacks kernel %q", name)
		}
	}
	if !strings.Contains(dom, "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;") {
		t.Error("DOM lacks the hostile kernel name as text")
	}
	if low := strings.ToLower(dom); strings.Contains(low, "<script") || strings.Contains(low, "<img") || strings.Contains(low, "<iframe") {
		t.Error("DOM holds an injected element")
	}
	for _, want := range []string{"Roofline", "ridge point", "Findings", "change"} {
		if !strings.Contains(dom, want) {
			t.Errorf("DOM lacks %q", want)
		}
	}
}

// pixels counts the distinct colours of img and the fraction of dark
// pixels (luminance under 40%).
func pixels(img image.Image) (colours int, dark float64) {
	seen := map[uint32]bool{}
	b := img.Bounds()
	n, d := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
			if 0.2126*float64(r)+0.7152*float64(g)+0.0722*float64(bl) < 0.4*0xffff {
				d++
			}
			n++
		}
	}
	return len(seen), float64(d) / float64(n)
}

func TestFormat(t *testing.T) {
	check := func(got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	check(num(-0.01), "0")
	check(num(12.345), "12.3")
	check(num(math.NaN()), "0")
	check(decade(-2), "0.01")
	check(decade(0), "1")
	check(decade(3), "1000")
	check(decade(5), "1e5")
	check(short(1e12), "1T")
	check(short(1e9), "1G")
	check(short(0.5), "0.5")
	check(fixed(-0.001, 1), "0.0")
	check(signedPct(-0.684), "\u221268%")
	check(signedPct(2.1), "+210%")
	check(sig3(255.82), "256")
	check(sig3(0.18339), "0.183")
	check(esc(`<a href="x">&'`), "&lt;a href=&#34;x&#34;&gt;&amp;&#39;")
}

// rooflineSVG draws the roofline of spec with kernels on it: log-log axes
// of arithmetic intensity (FLOP per DRAM byte) and achieved FLOP/s, the
// DRAM roof (peak bandwidth × intensity), the FP32 roof, the FP64 roof
// dashed, and the ridge point marked. Kernel i of the slice is drawn as
// point number i+1 with marker shape i; kernels that Place does not put on
// the roofline are left out (the HTML report lists them).
func rooflineSVG(kernels []*analysis.Kernel, spec *gpumodel.Spec) template.HTML {
	var items []roofItem
	for i, a := range kernels {
		if ai, perf, p := rooflinePlace(a); p == onRoofline {
			items = append(items, roofItem{n: i + 1, ai: ai, perf: perf})
		}
	}
	return roofline(items, spec)
}

// TestStateColors: every idle cause has a colour of its own in the strip
// and its legend (data loading, Python and the allocator once drew with
// fill="", black, and the legend showed no colour for them).
func TestStateColors(t *testing.T) {
	seen := map[string]string{}
	for _, st := range append([]string{"busy"}, verdict.IdleCauses...) {
		c := stateColor[st]
		if c == "" {
			t.Errorf("%s: no colour", st)
		}
		// Before and after the GPU's work share the grid colour: both are
		// the host alone.
		if other, ok := seen[c]; ok && !(st == verdict.IdleTrailing && other == verdict.IdleLeading) {
			t.Errorf("%s: colour %s, as %s's", st, c, other)
		}
		seen[c] = st
	}
}
