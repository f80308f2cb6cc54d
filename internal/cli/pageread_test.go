package cli

import (
	"bytes"
	"context"
	"regexp"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/rules"
)

// pageRead is analyze's read of an export (with its source page) made
// once: every launch's verdict, kept, that each format then renders as
// analyze would, without a read of its own. A read (parse and rules)
// costs a second of CPU on a speed-of-light page and a render a few
// milliseconds: a test that checks every format of a page reads it once.
type pageRead struct {
	files   []string
	st      *settings
	runs    []*profan.Run
	rvs     []*analysis.RunVerdict
	kernels []*analysis.Kernel
}

// readPage reads files as analyze does with its default flags.
func readPage(t *testing.T, files ...string) *pageRead {
	t.Helper()
	st, err := loadSettings("all", nil, "", deviceOpts{})
	if err != nil {
		t.Fatal(err)
	}
	vs := analysis.NewStream(st.Opt, true)
	if len(files) == 1 {
		vs.SkipJoins() // as analyzeRun
	}
	p := &pageRead{files: files, st: st}
	p.runs, err = readVerdicts(context.Background(), vs, files, ingest.Options{Concurrent: true}, st.Opt, nil, nil, func(a *analysis.Kernel) error {
		p.kernels = append(p.kernels, a)
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", files[0], err)
	}
	p.rvs = vs.Finish(p.runs)
	return p
}

// render is analyze --format format on the read, with opt's --top and
// --launches, over the launches whose name or demangled name kernel
// matches (-k; "" is every launch). A run-level verdict (a timeline, a
// join) is made of the launches read, which -k would filter: render
// refuses a filter on a read that has one.
func (p *pageRead) render(t *testing.T, format, kernel string, opt report.Options) string {
	t.Helper()
	var re *regexp.Regexp
	if kernel != "" {
		re = regexp.MustCompile(kernel)
		for _, rv := range p.rvs {
			if rv.Timeline != nil {
				t.Fatalf("%s: -k on a read with a timeline: read it with the filter", p.files[0])
			}
		}
		if js := analysis.Joins(p.rvs); len(js) > 0 {
			t.Fatalf("%s: -k on a read with joins: read it with the filter", p.files[0])
		}
	}
	var out bytes.Buffer
	opt.Cause = rules.CauseOf
	w, err := report.New(format, &out, opt)
	if err != nil {
		t.Fatal(err)
	}
	b := analysis.NewBuilder(report.KeepsIDs(format), p.st.Engine())
	matched := 0
	for _, a := range p.kernels {
		if k := a.Record; re != nil && !re.MatchString(k.Name) && (k.Demangled == "" || !re.MatchString(k.Demangled)) {
			continue
		}
		matched++
		b.Add(a)
		if err := w.Kernel(a); err != nil {
			t.Fatal(err)
		}
	}
	if matched == 0 {
		t.Fatalf("%s: -k %q matches no kernel", p.files[0], kernel)
	}
	if err := w.End(b.Finish(p.runs, p.rvs)); err != nil {
		t.Fatalf("%s: %s: %v", p.files[0], format, err)
	}
	return out.String()
}
