package ingest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// ncuDetailsHeader is the 15-column details header of ncu --metrics.
const ncuDetailsHeader = `"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"` + "\n"

// ncuDetailsRow is a metric row of ncuDetailsHeader with the given metric.
func ncuDetailsRow(kernel, metric, unit, value string) string {
	return `"0","1321","saxpy","127.0.0.1","` + kernel + `","1","7","(256, 1, 1)","(65536, 1, 1)","0","9.0","Command line profiler metrics","` +
		metric + `","` + unit + `","` + value + `"` + "\n"
}

const ncuSummaryHeader = `"Process ID","Process Name","Host Name","Kernel Name","Block Size","Grid Size","Device","CC","Invocations","Section Name","Metric Name","Metric Unit","Minimum","Maximum","Average"` + "\n"

// ncuFixture reads fixtures/ncu/name.
func ncuFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ncuFixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ncuLines splits b into lines that keep their "\n".
func ncuLines(b []byte) []string { return strings.SplitAfter(string(b), "\n") }

// ncuUTF16 encodes s as UTF-16 in the given byte order, with a BOM if bom.
func ncuUTF16(s string, order binary.AppendByteOrder, bom bool) []byte {
	var out []byte
	if bom {
		out = order.AppendUint16(out, 0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = order.AppendUint16(out, u)
	}
	return out
}

// ncuGarbage is n deterministic random bytes, with NUL bytes and no newline.
func ncuGarbage(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
		if b[i] == '\n' || i%97 == 7 {
			b[i] = 0
		}
	}
	return b
}

// TestReadErrors writes broken exports to files and checks that reading
// each fails at the right line: "<path>:<line>: " and a phrase that says why.
// Its last subtests are the inputs that look odd but must read.
func TestReadErrors(t *testing.T) {
	t.Run("bad", testReadBad)
	t.Run("ok/encodings", testReadEncodings)
	t.Run("ok/failing.csv", testReadFailingExport)
}

func testReadBad(t *testing.T) {
	saxpyRaw := ncuLines(ncuFixture(t, "saxpy.metrics.raw.csv")) // lines 4 header, 5 units, 6 the launch
	if len(saxpyRaw) != 7 || !strings.HasPrefix(saxpyRaw[4], `"",""`) || !strings.HasPrefix(saxpyRaw[5], `"0",`) {
		t.Fatalf("saxpy.metrics.raw.csv: unexpected layout")
	}
	rawRow := saxpyRaw[5]
	cut := 0 // the end of the 300th field
	for i, n := 0, 0; i < len(rawRow); i++ {
		if rawRow[i] == ',' && rawRow[i-1] == '"' && rawRow[i+1] == '"' {
			if n++; n == 300 {
				cut = i
				break
			}
		}
	}
	details := ncuLines(ncuFixture(t, "saxpy.metrics.details.csv"))
	var dHeader int // line index of the details header
	for i, l := range details {
		if strings.HasPrefix(l, `"ID",`) {
			dHeader = i
			break
		}
	}
	detailsUpTo := func(n int) string { return strings.Join(details[:n], "") } // the first n lines
	// A page with rule columns: its metric rows stop after the metric
	// value and a comma; its rule rows are as wide as the header.
	ruled := ncuLines(ncuFixture(t, "saxpy.details.csv"))
	rHeader, rMetric, rRule := 0, 0, 0
	for i, l := range ruled {
		switch {
		case strings.HasPrefix(l, `"ID",`):
			rHeader = i
		case rHeader > 0 && rMetric == 0 && strings.HasSuffix(l, "\",\n"):
			rMetric = i
		case rHeader > 0 && rRule == 0 && strings.Contains(l, `"","","","SOLBottleneck","OPT","`):
			rRule = i
		}
	}
	ruledWith := func(i int, line string) []byte {
		out := slices.Clone(ruled)
		out[i] = line
		return []byte(strings.Join(out, ""))
	}
	// The rule row cut after its rule type, then garbage from another
	// write: 18 of the header's 20 fields, every one well formed.
	ruleCut := ruled[rRule][:strings.Index(ruled[rRule], `"OPT",`)+len(`"OPT"`)] + `,"make garbage"` + "\n"

	tests := []struct {
		name   string
		in     []byte
		line   int
		want   string
		format string // forced, as with --format
	}{
		{"empty", nil, 1, "empty file", ""},
		{"BOM only", []byte("\xEF\xBB\xBF"), 1, "empty file", ""},
		{"UTF-16 BOM only", []byte("\xFF\xFE"), 1, "empty file", ""},
		{"blank lines only", []byte("\n\r\n\n"), 1, "no nvprof, ncu or nsys CSV header found in 3 lines", ""},
		{"binary garbage", append([]byte("==PROF== Connected to process 1 (/tmp/x)\nhello, world\n"), ncuGarbage(4096)...), 3, "binary data (NUL byte)", ""},
		{"PNG", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00"), 1, "invalid UTF-8", ""},
		{"UTF-16LE without BOM", ncuUTF16(ncuDetailsHeader+ncuDetailsRow("k(int)", "launch__grid_size", "", "1"), binary.LittleEndian, false), 1, "binary data (NUL byte)", ""},
		{"Latin-1 kernel name", []byte(ncuDetailsHeader + ncuDetailsRow("k(int)", "launch__grid_size", "", "1") + ncuDetailsRow("caf\xe9(int)", "launch__grid_size", "", "1")), 3, "invalid UTF-8", ""},
		{"details truncated in a quoted field", []byte(detailsUpTo(dHeader+3) + details[dHeader+3][:120]), dHeader + 4, "unterminated quoted field", ""},
		{"details truncated then more text", []byte(detailsUpTo(dHeader+3) + details[dHeader+3][:120] + "\n" + details[dHeader+4]), dHeader + 4, "unterminated quoted field", ""},
		{"details row with too few fields", []byte(ncuDetailsHeader + ncuDetailsRow("k(int)", "launch__grid_size", "", "1") + `"0","1321","saxpy","127.0.0.1","k(int)","1","7","(256, 1, 1)","(65536, 1, 1)","0","9.0","Command line profiler metrics","launch__block_size"` + "\n"), 3, "row has 13 fields, the header needs 15", ""},
		{"details row without kernel name", []byte(ncuDetailsHeader + ncuDetailsRow("k(int)", "launch__grid_size", "", "1") + `"1","1321","saxpy"` + "\n"), 3, "no kernel name", ""},
		{"details negative duration", []byte(ncuDetailsHeader + ncuDetailsRow("k(int)", "gpu__time_duration.sum", "ns", "-2,752")), 2, "negative duration", ""},
		{"raw page header only", []byte(strings.Join(saxpyRaw[:4], "")), 4, "units row is missing", ""},
		{"raw page without units row", []byte(strings.Join(saxpyRaw[:4], "") + saxpyRaw[5]), 5, "units row", ""},
		{"raw row with fewer fields", []byte(strings.Join(saxpyRaw[:5], "") + rawRow[:cut] + "\n"), 6, "row has 300 fields, the header has 422", ""},
		{"raw row cut in a quoted field", []byte(strings.Join(saxpyRaw[:5], "") + rawRow[:cut+3]), 6, "unterminated quoted field", ""},
		{"summary zero invocations", []byte(ncuSummaryHeader + `"1","copy","127.0.0.1","k(int)","(256, 1, 1)","(16384, 1, 1)","0","9.0","0","Command line profiler metrics","launch__grid_size","","16,384","16,384","16,384"` + "\n"), 2, `invocations "0" is not a positive count`, ""},
		{"summary truncated row", []byte(ncuSummaryHeader + `"1","copy","127.0.0.1","k(int)","(256, 1, 1)","(16384, 1, 1)","0","9.0","4","Command line profiler metrics","launch__grid_size","","16,384"` + "\n"), 2, "row has 13 fields, the header has 15", ""},
		{"details metric row without the comma after its value", ruledWith(rMetric, strings.TrimSuffix(ruled[rMetric], ",\n")+"\n"), rMetric + 1, "row has 15 fields, the header has 20 (a metric row has 16", ""},
		{"details metric row with a field more", ruledWith(rMetric, strings.TrimSuffix(ruled[rMetric], "\n")+`"x"`+"\n"), rMetric + 1, "row has 16 fields, the header has 20 (a metric row has 16, the last one empty)", ""},
		{"details rule row cut short, then garbage", ruledWith(rRule, ruleCut), rRule + 1, "row has 18 fields, the header has 20", ""},
		{"10 MB line", append([]byte("==PROF== Connected to process 1 (/tmp/x)\n"), bytes.Repeat([]byte("a,"), 5<<20)...), 2, "line longer than", ""},
		{"UTF-16LE with an odd byte at the end", append(ncuUTF16(detailsUpTo(dHeader+3), binary.LittleEndian, true), 'x'), dHeader + 4, "utf-16", ""},
		{"nvprof text summary", ncuMustRead(t, "testdata/errors/xplacer-nvprof-summary-text-not-csv.csv"), 4, "nvprof text output, not CSV: rerun nvprof with --csv", ""},
		{"bad-section.csv", ncuFixture(t, "bad-section.csv"), 1, "ncu failed, no table in the export: Option '--section NoSuchSection' did not match any section.", ""},
		{"failing-nokernel.csv", ncuFixture(t, "failing-nokernel.csv"), 2, "ncu failed, no table in the export: The application returned an error code (2).", ""},
		// A one-field "Kernel Name" line made the source importer index
		// past the header when it was forced on it.
		{"forced ncu-source, one-field block line", []byte(`"Kernel Name"` + "\n" + `"Address","Source"` + "\n" + `"0x10","NOP"` + "\n"), 2, "source block without a kernel name", "ncu-source"},
		{"forced ncu-details on a raw page", []byte(strings.Join(saxpyRaw[:4], "") + saxpyRaw[4][:200] + "\n"), 5, "no kernel name", "ncu-details"},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "bad"+strconv.Itoa(i)+".csv")
			if err := os.WriteFile(path, tt.in, 0o644); err != nil {
				t.Fatal(err)
			}
			run, err := ReadFile(path, Options{Format: tt.format})
			if err == nil {
				t.Fatalf("ReadFile(%s): got a run of %d kernels, want an error", tt.name, len(run.Kernels))
			}
			var se *syntaxError
			if !errors.As(err, &se) {
				t.Errorf("ReadFile(%s): got %T, want a *SyntaxError", tt.name, err)
			}
			prefix := path + ":" + strconv.Itoa(tt.line) + ": "
			if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadFile(%s):\n got error %q\nwant prefix %q and %q", tt.name, err, prefix, tt.want)
			}
		})
	}
}

func ncuMustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testReadEncodings checks that re-encoded copies of a details export
// (BOM, UTF-16, CRLF, no final newline) read to the same run.
func testReadEncodings(t *testing.T) {
	const name = "indirect.details.csv"
	orig := ncuFixture(t, name)
	want, err := Read(bytes.NewReader(orig), name, Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(orig, []byte("\n"), []byte("\r\n"))
	noNL := bytes.TrimSuffix(orig, []byte("\n"))
	for _, tt := range []struct {
		name string
		in   []byte
	}{
		{"UTF-8 BOM", append([]byte("\xEF\xBB\xBF"), orig...)},
		{"UTF-16LE BOM", ncuUTF16(string(orig), binary.LittleEndian, true)},
		{"UTF-16BE BOM", ncuUTF16(string(orig), binary.BigEndian, true)},
		{"CRLF", crlf},
		{"no final newline", noNL},
		{"CRLF no final newline", bytes.TrimSuffix(crlf, []byte("\r\n"))},
		{"UTF-16LE BOM CRLF no final newline", ncuUTF16(string(bytes.TrimSuffix(crlf, []byte("\r\n"))), binary.LittleEndian, true)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run, err := Read(bytes.NewReader(tt.in), name, Options{}, Sink{})
			if err != nil {
				t.Fatalf("Read(%s as %s): %v", name, tt.name, err)
			}
			if got := run.String(); got != want.String() {
				t.Errorf("Read(%s as %s) differs from the original:\n%s", name, tt.name, ncuFirstDiff(want.String(), got))
			}
			if run.Size != int64(len(tt.in)) {
				t.Errorf("Read(%s as %s): got size %d, want %d", name, tt.name, run.Size, len(tt.in))
			}
		})
	}
}

// ncuFirstDiff shows the first line where got differs from want.
func ncuFirstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n- " + wl + "\n+ " + gl
		}
	}
	return ""
}

// testReadFailingExport reads an export whose application failed after
// one kernel: the table is kept, and so is ncu's error message.
func testReadFailingExport(t *testing.T) {
	path := filepath.Join(ncuFixtureDir, "failing.csv")
	run, err := ReadFile(path, Options{})
	if err != nil {
		t.Fatalf("ReadFile(%s): %v", path, err)
	}
	if len(run.Kernels) != 1 || run.Kernels[0].Name != "touch(int *)" {
		t.Errorf("%s: got %d kernels, want 1 touch(int *)", path, len(run.Kernels))
	}
	errs := run.Errors()
	if len(errs) != 1 || errs[0].Text != "The application returned an error code (1)." || errs[0].Line != 5 {
		t.Errorf("%s: got error messages %+v, want line 5 %q", path, errs, "The application returned an error code (1).")
	}
}
