package blob

import (
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	importer "github.com/profan-dev/profan/internal/ingest"
)

func TestFindingTemplate(t *testing.T) {
	long := strings.Repeat("x", maxTemplate)
	for _, tc := range []struct {
		desc string
		tmpl string // the description part of the template; "" when written out
		nums []string
	}{
		{"each scheduler only issues an instruction every 5.9 cycles.", "each scheduler only issues an instruction every \x1e cycles.", []string{"5.9"}},
		{"Out of the 67143680.0 bytes sent only 0.00% were compressed", "Out of the \x1e bytes sent only \x1e% were compressed", []string{"67143680.0", "0.00"}},
		{"FP32 to FP64 is 2:1 on L1TEX", "FP32 to FP64 is \x1e:\x1e on L1TEX", []string{"2", "1"}},
		{"a speedup of 4.00x at PC 0x7f3a, 1,024 threads", "a speedup of \x1e at PC \x1e, \x1e threads", []string{"4.00x", "0x7f3a", "1,024"}},
		{"12", "\x1e", []string{"12"}},
		{"", "", nil},
		{"has a \x1e separator", "", nil},
		{long, "", nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			f := profan.ToolFinding{Section: "SOL", Rule: "Rule1", Type: "OPT", SpeedupType: "global", Description: tc.desc}
			tmpl, nums, ok := splitFinding(nil, nil, &f)
			if ok != (tc.tmpl != "" || tc.desc == "") {
				t.Errorf("%.30q: templated %v", tc.desc, ok)
				return
			}
			if !ok {
				return
			}
			if want := "SOL\x1fRule1\x1fOPT\x1fglobal\x1f" + tc.tmpl; string(tmpl) != want || strings.Join(nums, "|") != strings.Join(tc.nums, "|") {
				t.Errorf("%q: got %q %q, want %q %q", tc.desc, tmpl, nums, want, tc.nums)
			}
			var g profan.ToolFinding
			if !joinFinding(&g, string(tmpl), nums) || g.Description != f.Description || g.Section != f.Section || g.SpeedupType != f.SpeedupType {
				t.Errorf("%q: rebuilt %+v", tc.desc, g)
			}
		})
	}
	var g profan.ToolFinding
	if joinFinding(&g, "a\x1fb\x1fc\x1fd\x1fone \x1e", nil) || joinFinding(&g, "no fields", nil) {
		t.Error("a template and numbers that do not fit were joined")
	}
}

// TestFindingTemplatesReal splits every rule row of a real --set full
// capture (42 kernels × 3 launches, H100): each is rebuilt byte for byte,
// and the templates are far fewer than the rows.
func TestFindingTemplatesReal(t *testing.T) {
	run, err := importer.ReadFile("../../../fixtures/calib/calib.details.csv.gz", importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, textBytes, blobBytes := 0, 0, 0
	templates := map[string]bool{}
	for _, k := range run.Kernels {
		for _, f := range k.Findings {
			tmpl, nums, ok := splitFinding(nil, nil, &f)
			if !ok {
				t.Errorf("%s: not templated: %.60q", k.Name, f.Description)
				continue
			}
			g := profan.ToolFinding{Speedup: f.Speedup}
			if !joinFinding(&g, string(tmpl), nums) || fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", f) {
				t.Fatalf("%s: rebuilt %+v, want %+v", k.Name, g, f)
			}
			rows++
			templates[string(tmpl)] = true
			textBytes += len(f.Section) + len(f.Rule) + len(f.Type) + len(f.SpeedupType) + len(f.Description)
			for _, n := range nums {
				blobBytes += len(n) + 1
			}
		}
	}
	t.Logf("%d rule rows, %d templates; %d bytes of text, %d bytes of numbers", rows, len(templates), textBytes, blobBytes)
	if rows < 1000 || len(templates)*5 > rows || blobBytes*10 > textBytes {
		t.Errorf("%d rule rows gave %d templates and %d of %d bytes: expected far fewer", rows, len(templates), blobBytes, textBytes)
	}
}

// TestBlobVersion1 reads a blob written by version 1 of the encoding (every
// finding written out; testdata/blob-v1.hex, from profan f49b5ca).
func TestBlobVersion1(t *testing.T) {
	h, err := os.ReadFile("testdata/blob-v1.hex")
	if err != nil {
		t.Fatal(err)
	}
	b, err := hex.DecodeString(strings.TrimSpace(string(h)))
	if err != nil {
		t.Fatal(err)
	}
	if b[0] != 1 {
		t.Fatalf("version %d", b[0])
	}
	k := testKernels()[0]
	var d dict
	d.encode(k) // the same key IDs as when the blob was written
	got := &profan.Kernel{ID: k.ID, Name: k.Name, Demangled: k.Demangled, Device: k.Device,
		CC: k.CC, Grid: k.Grid, Block: k.Block, Invocations: k.Invocations, Duration: k.Duration}
	if err := DecodeKernel(b, got, d.key, nil); err != nil {
		t.Fatal(err)
	}
	if a, b := dumpKernel(got), dumpKernel(k); a != b {
		t.Errorf("got  %s\nwant %s", a, b)
	}
}
