package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gate"
	"github.com/spf13/pflag"
)

// pathMap rewrites source paths as --path-map FROM=TO pairs say: the build
// host's /tmp/build/src/ becomes the checkout's src/. The longest matching
// FROM wins; a path no pair matches is kept.
type pathMap []struct{ from, to string }

// addPathMapFlag registers the repeatable --path-map flag.
func addPathMapFlag(fs *pflag.FlagSet, p *[]string) {
	fs.StringArrayVar(p, "path-map", nil, "rewrite source paths starting with FROM to start with TO: FROM=TO (repeatable), e.g. /build/host/src/=src/")
}

func parsePathMap(specs []string) (pathMap, error) {
	var pm pathMap
	for _, s := range specs {
		from, to, ok := strings.Cut(s, "=")
		if !ok || from == "" {
			return nil, usageErrorf("--path-map %q: want FROM=TO, e.g. /build/host/src/=src/", s)
		}
		pm = append(pm, struct{ from, to string }{from, to})
	}
	sort.SliceStable(pm, func(i, j int) bool { return len(pm[i].from) > len(pm[j].from) })
	return pm, nil
}

// path returns p rewritten.
func (pm pathMap) path(p string) string {
	for _, m := range pm {
		if strings.HasPrefix(p, m.from) {
			return m.to + p[len(m.from):]
		}
	}
	return p
}

// kernel rewrites the paths of a kernel's source records, before analysis,
// so that every finding, instruction and output carries the new ones.
func (pm pathMap) kernel(k *profan.Kernel) {
	if len(pm) == 0 {
		return
	}
	for i := range k.Source {
		k.Source[i].File = pm.path(k.Source[i].File)
	}
}

// findings rewrites the locations of stored findings.
func (pm pathMap) findings(fs []profan.Finding) {
	if len(pm) == 0 {
		return
	}
	for i := range fs {
		for j := range fs[i].Locations {
			fs[i].Locations[j].File = pm.path(fs[i].Locations[j].File)
		}
	}
}

// rewritten is fs with its locations' paths rewritten, in copies: stored
// launches of one series share their findings.
func (pm pathMap) rewritten(fs []profan.Finding) []profan.Finding {
	if len(pm) == 0 {
		return fs
	}
	out := make([]profan.Finding, len(fs))
	for i, f := range fs {
		f.Locations = slices.Clone(f.Locations)
		out[i] = f
	}
	pm.findings(out)
	return out
}

func (pm pathMap) String() string {
	var parts []string
	for _, m := range pm {
		parts = append(parts, fmt.Sprintf("%s=%s", m.from, m.to))
	}
	return strings.Join(parts, " ")
}

// verdict rewrites the paths of a verdict read back from a database: its
// kernel's source records, its findings' and instructions' locations (in
// copies: stored launches of one series share them).
func (pm pathMap) verdict(a *analysis.Kernel) {
	if len(pm) == 0 {
		return
	}
	pm.kernel(a.Record)
	a.Findings = pm.rewritten(a.Findings)
	if len(a.Suppressed) > 0 {
		ss := slices.Clone(a.Suppressed)
		for i := range ss {
			ss[i].Finding = pm.rewritten([]profan.Finding{ss[i].Finding})[0]
		}
		a.Suppressed = ss
	}
	if len(a.Model.Instructions) > 0 {
		ins := slices.Clone(a.Model.Instructions)
		for i := range ins {
			ins[i].File = pm.path(ins[i].File)
		}
		a.Model.Instructions = ins
	}
}

// repoRoot is the directory GitHub annotations are relative to:
// $GITHUB_WORKSPACE (the checkout, in a GitHub Actions job), else the
// nearest directory above the working directory that holds .git, else the
// working directory.
func repoRoot(io *IOStreams) string {
	if w := io.Getenv("GITHUB_WORKSPACE"); w != "" {
		if abs, err := filepath.Abs(w); err == nil {
			return abs
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}

// repoRelative makes the paths of a gate's checks relative to root where
// they lie under it, as GitHub annotations want them: the exports' (given
// relative to the working directory) and the source files' that are
// absolute. A relative source path is the build host's, or --path-map's
// already in the repository's terms: kept, as are paths outside root.
func repoRelative(res *gate.Result, root string) {
	if root == "" {
		return
	}
	rel := func(p string) string {
		if p == "" {
			return p
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return p
		}
		r, err := filepath.Rel(root, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, "../") {
			return p
		}
		return filepath.ToSlash(r)
	}
	for i := range res.Checks {
		c := &res.Checks[i]
		c.Source = rel(c.Source)
		if len(c.Locations) > 0 {
			locs := slices.Clone(c.Locations)
			for j := range locs {
				if filepath.IsAbs(locs[j].File) {
					locs[j].File = rel(locs[j].File)
				}
			}
			c.Locations = locs
		}
	}
}
