package ingest

import (
	"os"
	"regexp"
	"strings"

	"github.com/profan-dev/profan"
)

// SourcePages holds the kernels of ncu source-page exports, keyed by launch
// ID and name, so that they can be attached to the same launches of a
// details or raw export of the same report: the source page says which
// line, the details page how much.
type SourcePages struct {
	byKey map[string]*profan.Kernel
	runs  []*profan.Run
	used  map[string]bool
}

// SplitSourcePages reads the source-page exports among files and returns
// them indexed, with the other files. Source pages are small (one table per
// kernel), so they are held in memory.
func SplitSourcePages(files []string) (*SourcePages, []string, error) {
	sp := &SourcePages{byKey: map[string]*profan.Kernel{}, used: map[string]bool{}}
	var rest []string
	for _, f := range files {
		format, err := Sniff(f)
		if err != nil {
			return nil, nil, err
		}
		if format != "ncu-source" {
			rest = append(rest, f)
			continue
		}
		run, err := ReadFile(f, Options{})
		if err != nil {
			return nil, nil, err
		}
		sp.runs = append(sp.runs, run)
		for _, k := range run.Kernels {
			sp.byKey[sourceKey(k)] = k
		}
	}
	return sp, rest, nil
}

// Attach gives k the source records of the same launch, with the
// kernel-level totals the source page provides.
func (sp *SourcePages) Attach(k *profan.Kernel) {
	if sp == nil || len(k.Source) > 0 {
		return
	}
	key := sourceKey(k)
	src, ok := sp.byKey[key]
	if !ok {
		return
	}
	sp.used[key] = true
	k.Source = src.Source
	for _, m := range src.Metrics {
		k.AddMetric(m)
	}
}

// Unused returns the source-page runs whose kernels matched nothing, to be
// analysed on their own.
func (sp *SourcePages) Unused() []*profan.Run {
	var out []*profan.Run
	for _, r := range sp.runs {
		n := 0
		for _, k := range r.Kernels {
			if sp.used[sourceKey(k)] {
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

// sourceKey identifies a launch across the pages of one report: its ID and
// its name without casts and spaces.
func sourceKey(k *profan.Kernel) string {
	name := castRE.ReplaceAllString(k.Name, "")
	return k.ID + "\x00" + strings.ReplaceAll(name, " ", "")
}

// ReadFiles reads exports one after another and hands every kernel to fn,
// with the source-page records of the same launch attached: the source
// pages among files are read first, and those whose kernels matched no
// launch are handed over on their own at the end. It returns the runs
// read, source pages last.
func ReadFiles(files []string, opt Options, fn func(*profan.Run, *profan.Kernel) error) ([]*profan.Run, error) {
	src, rest, err := SplitSourcePages(files)
	if err != nil {
		return nil, err
	}
	var runs []*profan.Run
	for _, path := range rest {
		run, err := readFile(path, opt, func(run *profan.Run, k *profan.Kernel) error {
			src.Attach(k)
			return fn(run, k)
		})
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	for _, run := range src.Unused() {
		for _, k := range run.Kernels {
			if err := fn(run, k); err != nil {
				return nil, err
			}
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func readFile(path string, opt Options, fn func(*profan.Run, *profan.Kernel) error) (*profan.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opt, Sink{Kernel: fn})
}
