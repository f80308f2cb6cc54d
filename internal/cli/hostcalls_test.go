package cli

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/profan-dev/profan/internal/store/storetest"
)

// TestStoredHostCalls: a run ingested from an nsys export (its API trace;
// its CUDA API and OS runtime summaries) reports the host calls analyze
// states of the export, on each backend: report --db's page has the same
// host-call section as analyze's and report's of the file.
func TestStoredHostCalls(t *testing.T) {
	t.Parallel()
	files := []string{
		"../ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz",
		"../ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv",
	}
	section := regexp.MustCompile(`(?s)<section id="host-calls">.*?</section>`)
	for _, backend := range storetest.Backends {
		t.Run(backend, func(t *testing.T) {
			db := storetest.DSN(t, backend)
			if _, errOut, code := run(t, append([]string{"ingest", "--db", db}, files...)...); code != ExitOK {
				t.Fatalf("ingest: exit %d: %s", code, errOut)
			}
			for i, f := range files {
				analyzed, _, _ := run(t, "analyze", f, "--format", "html")
				want := section.FindString(analyzed)
				if want == "" {
					t.Fatalf("analyze %s: no host calls on the page", f)
				}
				if page, _, _ := run(t, "report", f, "--html", "-"); section.FindString(page) != want {
					t.Errorf("report %s: host calls\n%s\nwant\n%s", f, section.FindString(page), want)
				}
				stored, errOut, code := run(t, "report", "--db", db, "--run", fmt.Sprint(i+1), "--html", "-")
				if code != ExitOK {
					t.Fatalf("report --db --run %d: exit %d: %s", i+1, code, errOut)
				}
				if got := section.FindString(stored); got != want {
					t.Errorf("stored run %d: host calls\n%s\nwant\n%s", i+1, got, want)
				}
			}
		})
	}
}
