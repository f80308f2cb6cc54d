package ingest

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
)

// SourcePages holds the kernels of ncu source-page exports, so that they
// can be attached to the same launches of a details or raw export of the
// same report: the source page says which line, the details page how much.
// A launch gets the source of the same function, in order: the n-th launch
// of f in a details page gets the n-th block of f in the source page. A
// source page carries no process, device or launch ID, only its functions
// in launch order: a launch whose block has another position (ID), a
// function with more launches on one page than on the other, are pages of
// different captures and refused.
type SourcePages struct {
	funcs  funcIndex // function → its launches, in order
	runs   []*profan.Run
	page   map[*profan.Kernel]*profan.Run // block → its source page
	used   map[*profan.Kernel]bool
	cursor map[*profan.Run]map[string]int
}

// NewSourcePages returns an empty index; Add fills it.
func NewSourcePages() *SourcePages { return newSourcePages() }

// Add indexes the kernels of a source-page run.
func (sp *SourcePages) Add(run *profan.Run) { sp.add(run) }

func newSourcePages() *SourcePages {
	return &SourcePages{funcs: newFuncIndex(),
		page: map[*profan.Kernel]*profan.Run{}, used: map[*profan.Kernel]bool{}, cursor: map[*profan.Run]map[string]int{}}
}

// SplitSourcePages reads the source-page exports among files and returns
// them indexed, with the other files. Source pages are small (one table per
// kernel), so they are held in memory.
func SplitSourcePages(files []string) (*SourcePages, []string, error) {
	sp, rest, err := splitSources(files, Options{})
	if err != nil {
		return nil, nil, err
	}
	var paths []string
	for _, f := range rest {
		paths = append(paths, f.Name())
		f.Close()
	}
	return sp, paths, nil
}

// splitSources opens each file once, reads the source pages among them and
// returns the others open, their heads sniffed, for the caller to read and
// close.
func splitSources(files []string, opt Options) (*SourcePages, []*File, error) {
	sp := newSourcePages()
	var rest []*File
	fail := func(err error) (*SourcePages, []*File, error) {
		for _, f := range rest {
			f.Close()
		}
		return nil, nil, err
	}
	for _, path := range files {
		open := open
		if st, err := statPath(path); len(files) > 1 && err == nil && !st.Mode().IsRegular() {
			// A pipe among other inputs is copied as it is parsed, so
			// that its digest is known before its kernels are handed
			// on: two pipes (or a pipe and a file) of one export are
			// read once.
			open = func(path string) (*File, error) { return OpenSeekable(path, opt) }
		}
		f, err := open(path)
		if err != nil {
			return fail(err)
		}
		if f.Format() != "ncu-source" || (opt.Format != "" && opt.Format != "ncu-source") {
			rest = append(rest, f)
			continue
		}
		run, err := f.Read(Options{}, Sink{})
		f.Close()
		if err != nil {
			return fail(err)
		}
		sp.add(run)
	}
	return sp, rest, nil
}

func (sp *SourcePages) add(run *profan.Run) {
	sp.runs = append(sp.runs, run)
	for _, k := range run.Kernels {
		sp.funcs.add(k)
		sp.page[k] = run
	}
}

// AttachRun gives k the source records of the same launch, with the
// kernel-level totals the source page provides. Launches are taken in
// order per function, the order kept per run: each details or raw page of
// the report gets the source page's launches from the first (run nil:
// across all the calls). A launch whose function's blocks are used up, or
// whose block is another launch's (its position on the source page is not
// the launch's ID), is refused: the pages are of different captures.
func (sp *SourcePages) AttachRun(run *profan.Run, k *profan.Kernel) error {
	if sp == nil || len(k.Source) > 0 || len(sp.runs) == 0 {
		return nil
	}
	key, q := sp.funcs.find(k)
	if len(q) == 0 {
		return nil
	}
	cur := sp.cursor[run]
	if cur == nil {
		cur = map[string]int{}
		sp.cursor[run] = cur
	}
	i := cur[key]
	cur[key] = i + 1
	if i >= len(q) {
		return &syntaxError{File: launchPage0(run), Line: k.Line, Msg: fmt.Sprintf(
			"launch %s of %s has no block on the source page %s, which holds %d launches of it: pages of different captures? (the pages of one report hold the same launches)",
			k.ID, shorten(k.Name, 60), safe.Term(sp.page[q[0]].Source), len(q))}
	}
	src := q[i]
	if src.ID != k.ID {
		return &syntaxError{File: launchPage0(run), Line: k.Line, Msg: fmt.Sprintf(
			"launch %s of %s would get the source of launch %s (%s:%d, the %s block of that function): pages of different captures? (the pages of one report list the same launches in the same order)",
			k.ID, shorten(k.Name, 60), src.ID, safe.Term(sp.page[src].Source), src.Line, ordinal(i+1))}
	}
	sp.used[src] = true
	k.Source = src.Source
	for _, m := range src.Metrics {
		k.AddMetric(m)
	}
	return nil
}

// launchPage0 is the file of the launches of run: its first page (a
// capture's launches are its first page's, with the others' counters).
func launchPage0(run *profan.Run) string {
	if run == nil {
		return "details page"
	}
	first, _, _ := strings.Cut(run.Source, " + ")
	return first
}

func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// Check refuses a source page some of whose blocks went to launches and
// some to none: the launch pages given lack launches the source page has,
// so they are not all of its report. (A source page that matched nothing
// is Unused.)
func (sp *SourcePages) Check() error {
	if sp == nil {
		return nil
	}
	for _, r := range sp.runs {
		used := 0
		for _, k := range r.Kernels {
			if sp.used[k] {
				used++
			}
		}
		if used == 0 || used == len(r.Kernels) {
			continue
		}
		for _, k := range r.Kernels {
			if !sp.used[k] {
				return &syntaxError{File: r.Source, Line: k.Line, Msg: fmt.Sprintf(
					"this source block of %s (launch %s of the page) matches no launch of the other pages given, though %d of the page's %d blocks do: pages of different captures? (the pages of one report hold the same launches)",
					shorten(k.Name, 60), k.ID, used, len(r.Kernels))}
			}
		}
	}
	return nil
}

func firstLine(run *profan.Run) int {
	if len(run.Kernels) > 0 {
		return run.Kernels[0].Line
	}
	return 0
}

// Any reports whether sp holds a source page.
func (sp *SourcePages) Any() bool { return sp != nil && len(sp.runs) > 0 }

// Unused returns the source-page runs whose kernels matched nothing, to be
// analysed on their own.
func (sp *SourcePages) Unused() []*profan.Run {
	var out []*profan.Run
	for _, r := range sp.runs {
		n := 0
		for _, k := range r.Kernels {
			if sp.used[k] {
				n++
			}
		}
		if n == 0 {
			out = append(out, r)
		}
	}
	return out
}

// castRE matches the type casts the source page prints in template
// arguments ("matmulTiled<(int)16>") where the details page prints none.
var castRE = regexp.MustCompile(`\([A-Za-z_][A-Za-z0-9_ ]*\)`)

// sourceName is a function's name as the pages of one report share it,
// whatever --print-kernel-base: demangled (one past maxMangled stays
// mangled), without casts, return type, parameters and spaces; and the
// same without template arguments.
func sourceName(name string) (full, bare string) {
	if d := demangled(name); d != "" {
		name = d
	}
	name = castRE.ReplaceAllString(name, "")
	depth, cut, ret := 0, len(name), -1
loop:
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '<':
			depth++
		case '>':
			depth--
		case '(':
			if depth == 0 {
				cut = i
				break loop
			}
		case ' ':
			if depth == 0 {
				ret = i
			}
		}
	}
	full = strings.ReplaceAll(name[ret+1:cut], " ", "")
	bare = full
	if i := strings.IndexByte(bare, '<'); i > 0 {
		bare = bare[:i]
	}
	return full, bare
}

// ReadFiles reads exports one after another and hands every kernel to fn,
// with the source-page records of the same launch attached: the source
// pages among files are read first; one whose kernels matched no launch
// is handed over on its own at the end when no other export is given, else
// refused, as source and launch pages that disagree are (see AttachRun and
// Check). Each file is opened and read once. It returns the runs read,
// source pages last.
func ReadFiles(files []string, opt Options, fn func(*profan.Run, *profan.Kernel) error) ([]*profan.Run, error) {
	src, rest, err := splitSources(files, opt)
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, f := range rest {
			f.Close()
		}
	}()
	rp, rest, err := splitReplays(rest, opt)
	if err != nil {
		return nil, err
	}
	captures, err := Captures(rest, opt)
	if err != nil {
		return nil, err
	}
	var runs []*profan.Run
	aside := digestsAside(rest)
	read := map[string]*profan.Run{} // digest → the run read with it
	attach := func(run *profan.Run, k *profan.Kernel) error {
		if err := src.AttachRun(run, k); err != nil {
			return err
		}
		return fn(run, k)
	}
	// A trace's launches take the counters of the replays read beside it.
	attachTrace := func(run *profan.Run, k *profan.Kernel) error {
		rp.attach(run, k)
		return attach(run, k)
	}
	pos := make(map[*File]int, len(rest))
	for i, f := range rest {
		pos[f] = i
	}
	for _, c := range captures {
		if len(c.Pages) > 1 {
			// The pages of one report: one run.
			run, err := ReadCapture(c, opt, attach)
			if err != nil {
				return nil, err
			}
			runs = append(runs, run)
			continue
		}
		in := c.Pages[0]
		if i := pos[in]; aside[i] != nil {
			// The same export given twice (the same path, a link to it, a
			// gzip or re-encoded copy) is read once, and said.
			if d, err := aside[i](); err == nil && read[d] != nil {
				first := read[d]
				first.Messages = append(first.Messages, profan.Message{Level: profan.LevelNote,
					Text: fmt.Sprintf("%s holds the same export as %s once decoded: read once", in.Name(), first.Source)})
				continue
			}
		}
		sink := Sink{Kernel: attach}
		if rp != nil && launchTrace(in.Format()) {
			sink.Kernel = attachTrace
		}
		run, err := in.Read(opt, sink)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
		if run.Digest != "" {
			read[run.Digest] = run
		}
	}
	if err := rp.finish(fn); err != nil {
		return nil, err
	}
	if rp != nil {
		runs = append(runs, rp.runs...)
	}
	if err := src.Check(); err != nil {
		return nil, err
	}
	for _, run := range src.Unused() {
		if len(runs) > 0 {
			// Beside launch pages, a source page is one of their report's.
			return nil, &syntaxError{File: run.Source, Line: firstLine(run), Msg: "this source page matches no launch of the other exports given: a source page of another capture? (give it with the details or raw page of its report, or alone)"}
		}
		for _, k := range run.Kernels {
			if err := fn(run, k); err != nil {
				return nil, err
			}
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// digestsAside starts, for each file but the first that is a regular file,
// the digest of its decoded text on a goroutine of its own, beside the
// parse of the files before it; nil entries have none (a single file, a
// pipe not copied, which cannot be read twice).
func digestsAside(files []*File) []func() (string, error) {
	out := make([]func() (string, error), len(files))
	if len(files) < 2 {
		return out
	}
	for i, f := range files[1:] {
		if f.spooled != "" {
			out[i+1] = func() (string, error) { return f.spooled, nil }
			continue
		}
		st, err := os.Stat(f.Name())
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		type result struct {
			d   string
			err error
		}
		ch := make(chan result, 1)
		go func() {
			d, err := DigestOf(f.Name())
			ch <- result{d, err}
		}()
		var r *result
		out[i+1] = func() (string, error) {
			if r == nil {
				x := <-ch
				r = &x
			}
			return r.d, r.err
		}
	}
	return out
}
