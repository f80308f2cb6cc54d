package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/golden"
)

// TestNsysTracesApart: the API trace and the GPU trace of one report in
// files of their own (nsys stats --output; here the real export of both
// split at the GPU trace's header) are one run for analyze and ingest, in
// either order, with the figures one export gives; the API trace of one
// report with the GPU trace of another exits 2 at the first kernel
// without its launch call, the database unchanged.
func TestNsysTracesApart(t *testing.T) {
	skipShort(t) // internal/ingest and internal/analysis hold the split traces with -short
	t.Parallel()
	dir := t.TempDir()
	split := func(name string) (api, gpu string) {
		b := golden.Gunzip(t, "../ingest/testdata/nsys/"+name+"-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
		i := bytes.Index(b, []byte("\nStart (ns),Duration (ns),CorrId,")) + 1
		api, gpu = filepath.Join(dir, name+"_cuda_api_trace.csv"), filepath.Join(dir, name+"_cuda_gpu_trace.csv")
		if os.WriteFile(api, b[:i], 0o644) != nil || os.WriteFile(gpu, b[i:], 0o644) != nil {
			t.Fatal("writing the traces")
		}
		return api, gpu
	}
	api, gpu := split("cufcm-rtx2080ti")
	out, errOut, code := run(t, "analyze", gpu, api)
	if code != ExitOK || !strings.Contains(out, "wall 17.473 s · GPU busy 73.0% (12.764 s)") || !strings.Contains(out, "host sync 1.7% (cudaDeviceSynchronize ×1178, 1 more)") {
		t.Fatalf("analyze: exit %d\n%s%s", code, out, errOut)
	}
	db := filepath.Join(dir, "t.db")
	if out, errOut, code := run(t, "ingest", "--db", db, api, gpu); code != ExitOK || !strings.Contains(out, "stored as run 1 (7701 launches") {
		t.Fatalf("ingest: exit %d\n%s%s", code, out, errOut)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	_, other := split("tensoriterator-rtx3090")
	if _, errOut, code := run(t, "ingest", "--db", db, api, other); code != ExitError || !strings.Contains(errOut, "_cuda_gpu_trace.csv:7: ") || !strings.Contains(errOut, "different captures") {
		t.Errorf("traces of two reports: exit %d, %q", code, errOut)
	}
	if after, err := os.ReadFile(db); err != nil || !bytes.Equal(after, before) {
		t.Errorf("traces of two reports changed the database (%v)", err)
	}
}
