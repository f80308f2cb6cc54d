package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClosest(t *testing.T) {
	t.Parallel()
	known := []string{"gld_efficiency", "gst_efficiency", "duration", "achieved_occupancy", "shared_efficiency"}
	for in, want := range map[string]string{
		"gld_effciency": "gld_efficiency", "gld_efficeincy": "gld_efficiency", "duraton": "duration",
		"Duration": "duration", "occupancy": "achieved_occupancy", "xyz": "", "dram": "",
	} {
		if got := closest(in, known); got != want {
			t.Errorf("closest(%q) = %q, want %q", in, got, want)
		}
	}
}

// Everyday mistakes exit 2 with what to do: a --kernel that matches
// nothing, a profiler's binary report given for its CSV, a misspelt flag.
func TestEverydayMistakes(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(exe) // real binary bytes stand for a report's
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rep := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bin[:4096], 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ncu, nsys := rep("app.ncu-rep"), rep("app.nsys-rep")
	stem := filepath.Join(dir, "app")
	for _, tt := range []struct {
		args []string
		err  string
	}{
		{[]string{"analyze", "--kernel", "^nosuch", fx + "copy.details.csv"}, `--kernel "^nosuch" matches no kernel`},
		{[]string{"gate", "--kernel", "^nosuch", fx + "copy.details.csv"}, `--kernel "^nosuch" matches no kernel`},
		{[]string{"analyze", ncu}, "this is an Nsight Compute report: export its pages as CSV with `ncu --import " + ncu + " --csv --page details > " + stem + ".details.csv`"},
		{[]string{"ingest", "--db", filepath.Join(dir, "r.db"), nsys}, "this is an Nsight Systems report: export its kernels as CSV with `nsys stats --report cuda_gpu_kern_sum --format csv " + nsys + " > " + stem + ".kern.csv`"},
		{[]string{"analyze", "--formt", "json", fx + "copy.details.csv"}, "unknown flag: --formt; did you mean --format?"},
		{[]string{"gate", "--max-regresion", "5%", fx + "copy.details.csv"}, "did you mean --max-regression?"},
	} {
		_, errOut, code := run(t, tt.args...)
		if code != ExitError || !strings.Contains(errOut, tt.err) {
			t.Errorf("%v: exit %d, want 2 and %q:\n%s", tt.args, code, tt.err, errOut)
		}
	}
}
