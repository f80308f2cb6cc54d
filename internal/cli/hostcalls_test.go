package cli

import (
	"fmt"
	"regexp"
	"strings"
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

// TestReportSkipsAPISummary: an nsys trace and its capture's CUDA API
// summary ingested together are two runs, the summary's (host calls, no
// launch) the newer; report --db with no run once drew that empty run
// where analyze of the two files gives the trace's verdict. It reports
// the newest run that holds launches and says which it passed over;
// --run still reports the summary's.
func TestReportSkipsAPISummary(t *testing.T) {
	t.Parallel()
	const dir = "../ingest/testdata/nsys/"
	for _, backend := range storetest.Backends {
		t.Run(backend, func(t *testing.T) {
			db := storetest.DSN(t, backend)
			if _, errOut, code := run(t, "ingest", "--db", db, dir+"cufcm-rtx2080ti-nsys2022-stats-cudaapitrace-gputrace.csv.gz", dir+"cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv"); code != ExitOK {
				t.Fatalf("ingest: exit %d: %s", code, errOut)
			}
			page, errOut, code := run(t, "report", "--db", db, "--html", "-")
			if code != ExitOK {
				t.Fatalf("report --db: exit %d: %s", code, errOut)
			}
			note := "note: run 2 (" + dir + "cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv), the newest, holds no kernel launches: reporting run 1 (" + dir + "cufcm-rtx2080ti-nsys2022-stats-cudaapitrace-gputrace.csv.gz), the newest that does; --run 2 reports run 2"
			if !strings.Contains(page, "<title>profan report: run 1 (") || !strings.Contains(errOut, note) || !strings.Contains(errOut, "(7701 launches of 20 kernels") {
				t.Errorf("report --db: %.200s\n%s\nwant run 1's page and %q", page, errOut, note)
			}
			page, errOut, _ = run(t, "report", "--db", db, "--run", "2", "--html", "-")
			if !strings.Contains(page, "<title>profan report: run 2 (") || strings.Contains(errOut, "note: run") {
				t.Errorf("report --db --run 2: %.200s\n%s", page, errOut)
			}
		})
	}
}
