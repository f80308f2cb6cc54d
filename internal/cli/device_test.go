package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDeviceNames: every GPU users run on is accepted by --device and
// model --arch, by its short name.
func TestDeviceNames(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"P100", "V100", "T4", "A10", "A10G", "A30", "A40", "A100", "A100 80GB PCIe",
		"A100-SXM4-80GB", "L4", "L40", "L40S", "H100", "H100 PCIe", "H100 NVL", "H200", "B200", "GB200",
		"RTX 2080 Ti", "RTX 3090", "RTX 4090", "RTX 5090", "Jetson Orin", "sm_86", "8.9",
		"H200 NVL", "V100 PCIe", "A100 40GB PCIe", "RTX 2060", "RTX 2070 SUPER", "RTX 2080 SUPER", "RTX 3060", "RTX 3060 Ti",
		"RTX 3070", "RTX 3070 Ti", "RTX 3080", "RTX 3080 Ti", "RTX 3090 Ti", "RTX 4060", "RTX 4060 Ti", "RTX 4070",
		"RTX 4070 SUPER", "RTX 4070 Ti", "RTX 4070 Ti SUPER", "RTX 4080", "RTX 4080 SUPER", "4090", "RTX 5060",
		"RTX 5060 Ti", "RTX 5070", "RTX 5070 Ti", "RTX 5080", "Jetson Orin Nano", "Jetson Orin NX", "Jetson AGX Orin 32GB"} {
		t.Run(name, func(t *testing.T) {
			if _, errOut, code := run(t, "model", "--arch", name, "--elem-bytes", "4", "--threads", "1024", "--pattern", "sequential"); code != 0 {
				t.Errorf("model --arch %q: exit %d: %s", name, code, errOut)
			}
			if _, err := newSettings(&Config{}, "all", nil, deviceOpts{Device: name}); err != nil {
				t.Errorf("--device %q: %v", name, err)
			}
		})
	}
}

// TestDeviceContradiction: a --device that the export contradicts is
// refused with both named, unless --device-force.
func TestDeviceContradiction(t *testing.T) {
	t.Parallel()
	const h100 = "../../fixtures/calib/calib.details.csv.gz" // cc 9.0, 132 SMs
	_, errOut, code := run(t, "analyze", "--device", "NVIDIA A100-SXM4-80GB", h100)
	if code != 2 || !strings.Contains(errOut, "the export 9.0, A100-SXM4-80GB 8.0") || !strings.Contains(errOut, "the export 132, A100-SXM4-80GB 108") {
		t.Errorf("exit %d, want 2 naming both GPUs:\n%s", code, errOut)
	}
	if _, errOut, code := run(t, "gate", "--device", "T4", h100); code != 2 || !strings.Contains(errOut, "contradicts the export") {
		t.Errorf("gate: exit %d, want 2:\n%s", code, errOut)
	}
	if out, errOut, code := run(t, "analyze", "--device", "A100", "--device-force", h100); code != 0 || !strings.Contains(out, "A100") {
		t.Errorf("--device-force: exit %d, want 0 on the A100:\n%s", code, errOut)
	}
	if _, errOut, code := run(t, "analyze", "--device", "H100", h100); code != 0 {
		t.Errorf("--device H100 on an H100 export: exit %d:\n%s", code, errOut)
	}
}

// TestDeviceContradictionEveryCommand: ingest, report and diff refuse the
// contradicting --device as analyze and gate do, through the same check;
// ingest stores nothing.
func TestDeviceContradictionEveryCommand(t *testing.T) {
	skipShort(t)
	t.Parallel()
	const h100 = "../../fixtures/calib/calib.details.csv.gz"
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	html := filepath.Join(dir, "r.html")
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"ingest", []string{"ingest", "--db", db, "--device", "T4", h100}},
		{"report", []string{"report", "--device", "T4", "--html", html, h100}},
		{"diff", []string{"diff", "--device", "T4", h100, h100}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := run(t, tt.args...)
			if code != 2 || !strings.Contains(errOut, "the export 9.0, Tesla T4 7.5") || !strings.Contains(errOut, "--device-force") {
				t.Errorf("exit %d, want 2 naming both GPUs:\n%s", code, errOut)
			}
			if _, errOut, code := run(t, append(append([]string(nil), tt.args[:1]...), append([]string{"--device-force"}, tt.args[1:]...)...)...); code != 0 {
				t.Errorf("--device-force: exit %d, want 0:\n%s", code, errOut)
			}
		})
	}
	if n := countRuns(t, db); n != 1 {
		t.Errorf("%d runs stored, want only the forced ingest's", n)
	}
	// A stored run is held to the named GPU as an export is.
	if _, errOut, code := run(t, "report", "--db", db, "--device", "T4", "--html", html); code != 2 || !strings.Contains(errOut, "contradicts the export") {
		t.Errorf("report --db: exit %d, want 2:\n%s", code, errOut)
	}
}
