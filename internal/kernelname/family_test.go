package kernelname_test

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/kernelname"
)

var updateFamilies = flag.Bool("update-families", false, "rewrite testdata/families.tsv from the corpus and every fixture")

const corpusFile = "testdata/families.tsv"

// fixtureNames reads every kernel name of every fixture: the captures in
// fixtures/ and the public samples under ingest/testdata.
func fixtureNames(t *testing.T) map[string]string {
	t.Helper()
	names := map[string]string{}
	for _, pat := range []string{"../../fixtures/*/*.csv", "../../fixtures/*/*.csv.gz", "../ingest/testdata/*/*.csv"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			if strings.Contains(f, "/errors/") {
				continue
			}
			run, err := ingest.ReadFile(f, ingest.Options{})
			if err != nil {
				continue // error fixtures and source pages
			}
			for _, k := range run.Kernels {
				if n := k.DisplayName(); n != "" {
					if _, ok := names[n]; !ok {
						names[n] = f
					}
				}
			}
		}
	}
	return names
}

type corpusRow struct{ lib, cat, family, name string }

func readCorpus(t *testing.T) []corpusRow {
	t.Helper()
	f, err := os.Open(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []corpusRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		if line == 1 || sc.Text() == "" {
			continue
		}
		p := strings.SplitN(sc.Text(), "\t", 4)
		if len(p) != 4 {
			t.Fatalf("%s:%d: want 4 tab-separated fields", corpusFile, line)
		}
		rows = append(rows, corpusRow{p[0], p[1], p[2], p[3]})
	}
	return rows
}

// TestFamilyCorpus holds the library, category and family of every kernel
// name collected from real captures (PyTorch eager and torch.compile, CNN,
// transformer and GPT steps in bf16, fp16 and FP32, training and
// inference, and the public nsys and nvprof samples), and checks that every
// library kernel of every fixture is in the corpus.
func TestFamilyCorpus(t *testing.T) {
	rows := readCorpus(t)
	if *updateFamilies {
		names := map[string]bool{}
		for _, r := range rows {
			names[r.name] = true
		}
		for n := range fixtureNames(t) {
			names[n] = true
		}
		var b strings.Builder
		b.WriteString("library\tcategory\tfamily\tname\n")
		var sorted []string
		for n := range names {
			sorted = append(sorted, n)
		}
		sort.Strings(sorted)
		for _, n := range sorted {
			i := kernelname.Classify(n)
			lib := i.Library.String()
			if lib == "" {
				lib = "user"
			}
			fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", lib, i.Category.ID(), i.Family, n)
		}
		if err := os.WriteFile(corpusFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		rows = readCorpus(t)
	}
	known := map[string]bool{}
	for _, r := range rows {
		known[r.name] = true
		t.Run(r.name, func(t *testing.T) {
			i := kernelname.Classify(r.name)
			lib := i.Library.String()
			if lib == "" {
				lib = "user"
			}
			if lib != r.lib || i.Category.ID() != r.cat || i.Family != r.family {
				t.Errorf("got %s %s %s, want %s %s %s", lib, i.Category.ID(), i.Family, r.lib, r.cat, r.family)
			}
			// A library kernel always has a category.
			if i.IsLibrary() && i.Category == kernelname.CatOther {
				t.Errorf("library kernel (%s) without a category", lib)
			}
		})
	}
	// A fixture's kernel that the corpus does not hold must be the
	// user's own: a library kernel's family is reviewed in the corpus.
	// Reading every fixture waits for CI, not the -short loop.
	if testing.Short() {
		return
	}
	for n, f := range fixtureNames(t) {
		if i := kernelname.Classify(n); !known[n] && i.IsLibrary() {
			t.Errorf("%s: %s kernel %.80q is not in %s (go test ./internal/kernelname -run TestFamilyCorpus -update-families, then review)", f, i.Library, n, corpusFile)
		}
	}
}
