package report

import (
	"fmt"
	"io"
	"strings"
)

// Format is one output format: it renders analysed kernels (analyze,
// report), gate results, or both.
type Format struct {
	Name    string
	Aliases []string
	// Kernels returns a streaming writer of verdicts; nil when the format
	// does not render analyses.
	Kernels func(w io.Writer, opt Options) Writer
	// IDs is set when the format lists every launch's ID: the verdict's
	// groups then keep them (verdict.NewBuilder).
	IDs bool
	// Gate renders a gate's result; nil when the format does not.
	Gate func(w io.Writer, r *GateResult, opt Options) error
	// Trend, Diff, Runs and Model render what profan trend, diff, runs
	// and model print; nil when the format does not.
	Trend func(w io.Writer, t *Trend, opt Options) error
	Diff  func(w io.Writer, d *Diff, opt Options) error
	Runs  func(w io.Writer, rs []Run, opt Options) error
	Model func(w io.Writer, m *Model, opt Options) error
}

// registry is every output format. Adding one is a file declaring its
// Format plus a line here.
var registry = []*Format{
	Text,
	jsonFormat,
	markdownFormat,
	htmlFormat,
	junitFormat,
	sarifFormat,
	GitHub,
	csvFormat,
}

// Lookup returns the format called name (or one of its aliases).
func Lookup(name string) (*Format, bool) {
	if name == "" {
		name = "text"
	}
	for _, f := range registry {
		if f.Name == name {
			return f, true
		}
		for _, a := range f.Aliases {
			if a == name {
				return f, true
			}
		}
	}
	return nil, false
}

// KernelFormats lists the names of the formats that render analyses.
func KernelFormats() []string { return names(func(f *Format) bool { return f.Kernels != nil }) }

// GateFormats lists the formats that render gate results.
func GateFormats() []string { return names(func(f *Format) bool { return f.Gate != nil }) }

// TrendFormats lists the formats of profan trend; DiffFormats,
// RunsFormats and ModelFormats those of diff, runs and model.
func TrendFormats() []string { return names(func(f *Format) bool { return f.Trend != nil }) }

// DiffFormats lists the formats of profan diff.
func DiffFormats() []string { return names(func(f *Format) bool { return f.Diff != nil }) }

// RunsFormats lists the formats of profan runs.
func RunsFormats() []string { return names(func(f *Format) bool { return f.Runs != nil }) }

// ModelFormats lists the formats of profan model.
func ModelFormats() []string { return names(func(f *Format) bool { return f.Model != nil }) }

func names(ok func(*Format) bool) []string {
	var out []string
	for _, f := range registry {
		if ok(f) {
			out = append(out, f.Name)
		}
	}
	return out
}

// New returns the verdict writer of a format.
func New(format string, w io.Writer, opt Options) (Writer, error) {
	f, ok := Lookup(format)
	if !ok || f.Kernels == nil {
		return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(KernelFormats(), ", "))
	}
	return f.Kernels(w, opt), nil
}

// KeepsIDs reports whether a verdict rendered in format must keep its
// launches' IDs.
func KeepsIDs(format string) bool {
	f, ok := Lookup(format)
	return ok && f.IDs
}

// WriteGate renders a gate's result in a format.
func WriteGate(format string, w io.Writer, r *GateResult, opt Options) error {
	f, ok := Lookup(format)
	if !ok || f.Gate == nil {
		return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(GateFormats(), ", "))
	}
	return f.Gate(w, r, opt)
}
