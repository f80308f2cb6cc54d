package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/golden"
)

// profilerSamples lists the real exports under testdata/<dir>.
func profilerSamples(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no samples in testdata/%s", dir)
	}
	return files
}

// checkGoldenDir reads every sample of testdata/<dir> and compares the
// run's dump with <name>.golden beside it (go test -update rewrites them).
func checkGoldenDir(t *testing.T, dir string) {
	for _, path := range profilerSamples(t, dir) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			run, err := ReadFile(path, Options{})
			if err != nil {
				t.Fatalf("ReadFile(%s): %v", path, err)
			}
			golden.Check(t, strings.TrimSuffix(path, ".csv")+".golden", []byte(run.String()))
		})
	}
}

func TestNvprofGolden(t *testing.T) { checkGoldenDir(t, "nvprof") }

// sampleCount is what a sample must yield, counted by reading the file:
// kernel records, activities, API rows, and the formats in order.
type sampleCount struct {
	file                   string
	kernels, acts, apis    int
	format                 string
	firstKernel, firstName string // ID and name of the first kernel, when checked
}

func checkCounts(t *testing.T, dir string, tests []sampleCount) {
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.file] = true
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", dir, tt.file)
			run, err := ReadFile(path, Options{})
			if err != nil {
				t.Fatalf("ReadFile(%s): %v", path, err)
			}
			if len(run.Kernels) != tt.kernels || len(run.Activities) != tt.acts || len(run.APICalls) != tt.apis {
				t.Errorf("%s: got %d kernels, %d activities, %d API calls; want %d, %d, %d",
					tt.file, len(run.Kernels), len(run.Activities), len(run.APICalls), tt.kernels, tt.acts, tt.apis)
			}
			if run.Format != tt.format {
				t.Errorf("%s: got format %q, want %q", tt.file, run.Format, tt.format)
			}
			if tt.firstName != "" && len(run.Kernels) > 0 {
				k := run.Kernels[0]
				if k.ID != tt.firstKernel || k.Name != tt.firstName {
					t.Errorf("%s: got first kernel %s %q, want %s %q", tt.file, k.ID, k.Name, tt.firstKernel, tt.firstName)
				}
			}
		})
	}
	for _, path := range profilerSamples(t, dir) {
		if !seen[filepath.Base(path)] {
			t.Errorf("%s has no expected counts", path)
		}
	}
}

func TestNvprofCounts(t *testing.T) {
	checkCounts(t, "nvprof", []sampleCount{
		// Events and metrics of the same kernel are two tables: two records.
		{"gocupti-v100-events-and-metrics.csv", 2, 0, 0, "nvprof-events+nvprof-metrics", "0", "vectorAdd(float const *, float const *, float*, int)"},
		{"ieee2017-k40c-events-no-total-then-metrics.csv", 2, 0, 0, "nvprof-events+nvprof-metrics", "", ""},
		{"gpucachesim-gtx1080-trace-metrics-all-wide-plus-gputrace.csv", 1, 0, 0, "nvprof-wide", "1", "_Z6vecAddIfEvPT_S1_S1_i"},
		{"ieee2017-gtxtitan-wide-per-kernel-events-metrics.csv", 4, 0, 0, "nvprof-wide", "", ""},
		{"ieee2017-titanxpascal-wide-per-kernel-tiny.csv", 1, 0, 0, "nvprof-wide", "", ""},
		{"ieee2017-k20c-gpu-api-summary-no-type-col-sci.csv", 5, 2, 14, "nvprof-summary", "", ""},
		{"nanzifan-titanxp-gpu-api-summary-um.csv", 4, 3 + 2, 19, "nvprof-summary+nvprof-um-summary", "", ""},
		{"nanzifan-titanxp-gpu-summary-um.csv", 4, 3 + 2, 0, "nvprof-summary+nvprof-um-summary", "", ""},
		{"ieee2017-k20c-jacobi-unroll.csv", 5, 0, 0, "nvprof-metrics", "", ""},
		{"magus-gtx1080ti-histogram-levels-trailing-warning.csv", 4, 0, 0, "nvprof-metrics", "", ""},
		{"magus-gtx1080ti-matrixMul-metrics.csv", 1, 0, 0, "nvprof-metrics", "", ""},
		{"magus-gtx760-dev1-lavaMD.csv", 1, 0, 0, "nvprof-metrics", "", ""},
		{"magus-gtx950-FDTD3d.csv", 1, 0, 0, "nvprof-metrics", "", ""},
		{"magus-gtx950-no-pid-prefix.csv", 6, 0, 0, "nvprof-metrics", "", ""},
		{"ieee2017-k20c-trace-sci-notation.csv", 15, 6, 0, "nvprof-gputrace", "114", "__kernel___forma_kernel__0__(float*, int, int, float*, float*, float*, int, int, float*)"},
		{"magus-gtx1080ti-2dconv-start-seconds.csv", 1, 2, 0, "nvprof-gputrace", "", ""},
		{"magus-gtx1080ti-invalid-records-warning-templates.csv", 201, 200, 0, "nvprof-gputrace", "1098", "void reduce6<int, unsigned int=256, bool=1>(int*, int*, unsigned int)"},
		// 301 launches, as the metrics file of the same app says (Invocations 301).
		{"magus-gtx1080ti-matrixMul-trace.csv", 301, 3, 0, "nvprof-gputrace", "1073", "void matrixMulCUDA<int=32>(float*, float*, float*, int, int)"},
		{"magus-gtx1080ti-vectorAdd-ms-us.csv", 1, 3, 0, "nvprof-gputrace", "", ""},
		{"tkm-gtx950-maxwell-two-streams.csv", 2, 6, 0, "nvprof-gputrace", "", ""},
	})
}

// TestNvprofUnits pins conversions checked by hand against the samples.
func TestNvprofUnits(t *testing.T) {
	run, err := ReadFile("testdata/nvprof/magus-gtx1080ti-vectorAdd-ms-us.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 195.312500 KB is the 200,000-byte vector; 511.803 us; 372.672421 MB/s (2^20).
	a := run.Activities[0]
	if a.Kind != "memcpy HtoD" || !near(a.Bytes, 200000) || !near(a.Duration, 511.803e-6) || !near(a.Throughput, 372.672421*(1<<20)) || !near(a.Start, 0.611996748) {
		t.Errorf("vectorAdd HtoD: got kind %q bytes %v dur %v thru %v start %v", a.Kind, a.Bytes, a.Duration, a.Throughput, a.Start)
	}
	run, err = ReadFile("testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 400 KB in 1.028854 ms at 379.670001 MB/s: 409600 B / 1.028854e-3 s / 2^20.
	a = run.Activities[0]
	if !near(a.Bytes, 409600) || !near(a.Throughput, 379.670001*(1<<20)) {
		t.Errorf("matrixMul HtoD: got bytes %v thru %v", a.Bytes, a.Throughput)
	}
	if k := run.Kernels[0]; !near(k.StaticSMem, 8192) || k.DynamicSMem != 0 || k.Registers != 27 || k.Grid != [3]int{20, 10, 1} || k.Block != [3]int{32, 32, 1} {
		t.Errorf("matrixMul kernel: got smem %v/%v regs %d grid %v block %v", k.StaticSMem, k.DynamicSMem, k.Registers, k.Grid, k.Block)
	}
	run, err = ReadFile("testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	k := run.Kernels[0]
	for _, tt := range []struct {
		name       string
		value      float64
		unit, text string
	}{
		{"achieved_occupancy", 0, "", ""}, // only the unit is checked
		{"gld_efficiency", 0, "%", ""},
		{"dram_utilization", 0, "level", ""},
		{"dram_read_throughput", 0, "B/s", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := k.Metric(tt.name)
			if !ok {
				t.Errorf("matrixMul metrics: no %s", tt.name)
				return
			}
			if m.Unit != tt.unit || !m.IsNumber() {
				t.Errorf("matrixMul %s: got %v %q (raw %q), want a number in %q", tt.name, m.Value, m.Unit, m.Raw, tt.unit)
			}
		})
	}
	if k.Invocations != 301 || k.ID != "0" || k.Device != "GeForce GTX 1080 Ti" || k.DeviceIndex != 0 {
		t.Errorf("matrixMul metrics kernel: got n=%d id=%s device %q (%d)", k.Invocations, k.ID, k.Device, k.DeviceIndex)
	}
}

// badInput is an export that must fail at line with an error containing want.
type badInput struct {
	name, in string
	line     int
	want     string
}

const (
	metricsHeader = `"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"` + "\n"
	metricsRow    = `"Tesla K20c (0)","k(int)",3,"gld_efficiency","Global Memory Load Efficiency",25.000000%,25.000000%,25.000000%` + "\n"
	eventsHeader  = `"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"` + "\n"
	traceHeader   = `"Start","Duration","Grid X","Grid Y","Grid Z","Block X","Block Y","Block Z","Registers Per Thread","Static SMem","Dynamic SMem","Size","Throughput","Device","Context","Stream","Name"` + "\n"
	traceUnits    = "ms,us,,,,,,,,B,B,KB,MB/s,,,,\n"
	summaryHeader = `"Type","Time(%)","Time","Calls","Avg","Min","Max","Name"` + "\n"
	summaryUnits  = ",%,ms,,us,us,ms,\n"
	umHeader      = `"Device","Count","Avg Size","Min Size","Max Size","Total Size","Total Time",""` + "\n"
	wideHeader    = `"Device","Context","Stream","Kernel","flop_count_sp","sm_efficiency"` + "\n"
	wideUnits     = ",,,,,%\n"
	nvprofMsg     = "==2868== Profiling result:\n"
)

var nvprofBadInputs = []badInput{
	{"metrics truncated row", nvprofMsg + metricsHeader + metricsRow + `"Tesla K20c (0)","k(int)",3,"gld_efficiency","Global`, 4, "truncated row"},
	{"metrics garbage number", nvprofMsg + metricsHeader + strings.Replace(metricsRow, "25.000000%,25", "2x5%,25", 1), 3, `column "Min": "2x5%" is not a number`},
	{"metrics bad invocations", nvprofMsg + metricsHeader + strings.Replace(metricsRow, ",3,", ",-3,", 1), 3, `"Invocations"`},
	{"metrics zero invocations", nvprofMsg + metricsHeader + strings.Replace(metricsRow, ",3,", ",0,", 1), 3, `"Invocations"`},
	{"metrics header only", nvprofMsg + metricsHeader, 2, "no rows"},
	{"metrics no kernel name", nvprofMsg + metricsHeader + strings.Replace(metricsRow, `"k(int)"`, `""`, 1), 3, "no kernel name"},
	{"events garbage total", eventsHeader + `"V100 (0)","k",1,"inst_executed",1,2,3,four` + "\n", 2, `column "Total": "four"`},
	{"events header only", eventsHeader, 1, "no rows"},
	{"trace header only", nvprofMsg + traceHeader, 2, "units row is missing"},
	{"trace units row missing", nvprofMsg + traceHeader + `584.620743,1.028854,,,,,,,,,,400.000000,379.670001,"GTX (0)","1","7","[CUDA memcpy HtoD]"` + "\n", 3, "expected the units row"},
	{"trace no rows", nvprofMsg + traceHeader + traceUnits, 2, "no rows"},
	{"trace truncated row", nvprofMsg + traceHeader + traceUnits + "587.796940,0.077602,20,10,1,32,32,1,27,8.000000,0,,,\"GTX (0)\",\"1\"\n", 4, "row has 15 fields, the header has 17"},
	{"trace unterminated quote", nvprofMsg + traceHeader + traceUnits + "587.796940,0.077602,20,10,1,32,32,1,27,8.000000,0,,,\"GTX (0)\",\"1\",\"7\",\"k(int\n", 4, "unterminated"},
	{"trace garbage duration", nvprofMsg + traceHeader + traceUnits + "587.796940,fast,20,10,1,32,32,1,27,8.000000,0,,,\"GTX (0)\",\"1\",\"7\",\"k [1]\"\n", 4, `column "Duration": "fast" is not a number`},
	{"trace fractional grid", nvprofMsg + traceHeader + traceUnits + "587.796940,1,2.5,10,1,32,32,1,27,8.000000,0,,,\"GTX (0)\",\"1\",\"7\",\"k [1]\"\n", 4, `column "Grid X": "2.5" is not a count`},
	{"trace negative duration", nvprofMsg + traceHeader + traceUnits + "587.796940,-1,2,10,1,32,32,1,27,8.000000,0,,,\"GTX (0)\",\"1\",\"7\",\"k [1]\"\n", 4, "negative duration"},
	{"trace wrong unit", nvprofMsg + traceHeader + "KB,us,,,,,,,,B,B,KB,MB/s,,,,\n" + "1,1,,,,,,,,,,1,1,\"GTX (0)\",\"1\",\"7\",\"[CUDA memset]\"\n", 3, `column "Start": unit "KB"`},
	{"trace overflow", nvprofMsg + traceHeader + traceUnits + "1,1,,,,,,,,,,1e308,1,\"GTX (0)\",\"1\",\"7\",\"[CUDA memset]\"\n", 4, "out of range"},
	{"summary header only", nvprofMsg + summaryHeader, 2, "units row is missing"},
	{"summary garbage", nvprofMsg + summaryHeader + summaryUnits + `"GPU activities",68.7,268.3,6000,44.7,43.1,x,"k(int)"` + "\n", 4, `column "Max": "x" is not a number`},
	{"summary no calls", nvprofMsg + summaryHeader + summaryUnits + `"GPU activities",68.7,268.3,,44.7,43.1,1,"k(int)"` + "\n", 4, `"Calls"`},
	{"summary truncated", nvprofMsg + summaryHeader + summaryUnits + `"GPU activities",68.7,268.3,6000,44.7` + "\n", 4, "truncated row"},
	{"um truncated", umHeader + `"TITAN Xp (0)",158,40.860352KB,4.000000KB` + "\n", 2, "truncated row"},
	{"um garbage size", umHeader + `"TITAN Xp (0)",158,40.860352KB,4.000000KB,600.000000KB,lots,0.000000,"Host To Device"` + "\n", 2, `column "Total Size": "lots"`},
	{"um size in percent", umHeader + `"TITAN Xp (0)",158,40.860352KB,4.000000KB,600.000000KB,5%,0.000000,"Host To Device"` + "\n", 2, "is not a size"},
	{"wide header only", nvprofMsg + wideHeader, 2, "units row is missing"},
	{"wide garbage", nvprofMsg + wideHeader + wideUnits + `"TITAN X (Pascal) (0)","1","7","k",10,lots` + "\n", 4, `column "sm_efficiency": "lots"`},
	{"wide truncated", nvprofMsg + wideHeader + wideUnits + `"TITAN X (Pascal) (0)","1","7","k",10` + "\n", 4, "truncated row"},
	{"wide unnamed column", nvprofMsg + `"Device","Context","Stream","Kernel",""` + "\n" + ",,,,\n" + `"T (0)","1","7","k",1` + "\n", 2, "has no name"},
}

// TestNvprofError feeds broken exports and checks that each fails with an
// error at the right file and line.
func TestNvprofError(t *testing.T) {
	for _, tt := range nvprofBadInputs {
		t.Run(tt.name, func(t *testing.T) { checkReadError(t, tt.in, tt.line, tt.want) })
	}
}

// near reports whether got equals want to nine significant digits.
func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Abs(want) }

// checkReadError reads in as a file called bad.csv and checks the error.
func checkReadError(t *testing.T, in string, line int, want string) {
	t.Helper()
	run, err := Read(strings.NewReader(in), "bad.csv", Options{}, Sink{})
	if err == nil {
		t.Fatalf("Read(%q): got a run of %d kernels, want an error", in, len(run.Kernels))
	}
	var se *syntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Read(%q): got %T %v, want a *SyntaxError", in, err, err)
	}
	prefix := "bad.csv:" + strconv.Itoa(line) + ": "
	if !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), want) {
		t.Errorf("Read(%q):\n got error %q\nwant prefix %q and %q", in, err, prefix, want)
	}
}

// profFormats are the importers of this file's formats, forced in the
// fuzzers so that each Parse also meets headers that are not its own.
var nvprofFormats = []string{"nvprof-metrics", "nvprof-events", "nvprof-gputrace", "nvprof-summary", "nvprof-um-summary", "nvprof-wide"}

// fuzzRead checks the property every importer must keep: reading never
// panics, and a run that reads without error is valid and prints.
func fuzzRead(t *testing.T, data []byte, formats []string) {
	for _, format := range append([]string{""}, formats...) {
		run, err := Read(bytes.NewReader(data), "fuzz.csv", Options{Format: format}, Sink{})
		if err != nil {
			continue
		}
		if err := run.CheckValid(); err != nil {
			t.Fatalf("format %q: Read succeeded with an invalid run: %v", format, err)
		}
		_ = run.String()
	}
}

// addSeeds adds every sample of testdata/<dir> to the fuzzer's corpus.
func addSeeds(f *testing.F, dir string) {
	for _, path := range profilerSamples(f, dir) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzNvprof(f *testing.F) {
	skipShort(f)
	addSeeds(f, "nvprof")
	for _, b := range nvprofBadInputs {
		f.Add([]byte(b.in))
	}
	f.Add([]byte(trace20))
	f.Add([]byte(trace22))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, nvprofFormats) })
}

// Trace variants seen but not sampled: the
// 20-column header with Correlation_ID and memory types, and the 22-column
// one with Unified Memory rows that hold a PC, a quoted fault count or a
// byte count in the same column.
const (
	trace20 = nvprofMsg + `"Start","Duration","Grid X","Grid Y","Grid Z","Block X","Block Y","Block Z","Registers Per Thread","Static SMem","Dynamic SMem","Size","Throughput","SrcMemType","DstMemType","Device","Context","Stream","Name","Correlation_ID"` + "\n" +
		"us,us,,,,,,,,B,B,B,MB/s,,,,,,,\n" +
		`255420.120000,2.112000,,,,,,,,,,400,180.616004,"Pageable","Device","NVIDIA GeForce GTX 1080 (0)","1","7","[CUDA memcpy HtoD]",115` + "\n" +
		`255482.432000,2.944000,1,1,1,32,1,1,8,0,0,,,,,"NVIDIA GeForce GTX 1080 (0)","1","7","_Z6vecAddIfEvPT_S1_S1_i",121` + "\n"
	trace22 = nvprofMsg + `"Start","Duration","Grid X","Grid Y","Grid Z","Block X","Block Y","Block Z","Registers Per Thread","Static SMem","Dynamic SMem","Size","Throughput","SrcMemType","DstMemType","Device","Context","Stream","Unified Memory","Virtual Address","Name","Correlation_ID"` + "\n" +
		"s,ms,,,,,,,,B,B,MB,GB/s,,,,,,B,,,\n" +
		`1.204081,,,,,,,,,,,,,,,,,,"PC 0x5e240510","0x7f54d8000000","[Unified Memory CPU page faults]",` + "\n" +
		`1.801239,0.276608,,,,,,,,,,,,,,"TITAN Xp (0)",,,"18","0x7f54d8800000","[Unified Memory GPU page faults]",` + "\n" +
		`1.802441,0.007360,,,,,,,,,,,,,,"TITAN Xp (0)",,,65536.000000,"0x7f54d8000000","[Unified Memory Memcpy HtoD]",` + "\n" +
		`1.803000,0.010000,64,1,1,256,1,1,10,0,1.000000e+03,,,,,"TITAN Xp (0)","1","7",,,"k(int)",99` + "\n"
)

func TestNvprofTraceVariants(t *testing.T) {
	run, err := Read(strings.NewReader(trace20), "trace20.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Kernels) != 1 || len(run.Activities) != 1 {
		t.Fatalf("trace20: got %d kernels, %d activities; want 1, 1", len(run.Kernels), len(run.Activities))
	}
	k, a := run.Kernels[0], run.Activities[0]
	if k.ID != "121" || k.Name != "_Z6vecAddIfEvPT_S1_S1_i" || k.Demangled != "void vecAdd<float>(float*, float*, float*, int)" ||
		k.Device != "NVIDIA GeForce GTX 1080" || !near(k.Start, 0.255482432) || !near(k.Duration, 2.944e-6) {
		t.Errorf("trace20 kernel: got %s", k)
	}
	if a.Correlation != "115" || a.SrcMemType != "Pageable" || a.DstMemType != "Device" || a.Bytes != 400 || !near(a.Throughput, 180.616004*(1<<20)) {
		t.Errorf("trace20 copy: got %+v", *a)
	}

	run, err = Read(strings.NewReader(trace22), "trace22.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Kernels) != 1 || len(run.Activities) != 3 {
		t.Fatalf("trace22: got %d kernels, %d activities; want 1, 3", len(run.Kernels), len(run.Activities))
	}
	for i, want := range []struct {
		kind  string
		bytes float64
	}{{"um CPU page faults", math.NaN()}, {"um GPU page faults", math.NaN()}, {"um Memcpy HtoD", 65536}} {
		t.Run(want.kind, func(t *testing.T) {
			a := run.Activities[i]
			if a.Kind != want.kind || !(a.Bytes == want.bytes || math.IsNaN(a.Bytes) && math.IsNaN(want.bytes)) {
				t.Errorf("trace22 activity %d: got kind %q bytes %v, want %q %v", i, a.Kind, a.Bytes, want.kind, want.bytes)
			}
		})
	}
	if k := run.Kernels[0]; k.ID != "99" || k.DynamicSMem != 1000 || !near(k.Duration, 1e-5) {
		t.Errorf("trace22 kernel: got %s", k)
	}
}

// TestProfilerMatch checks that each nvprof and nsys header below is
// claimed by its importer alone among the nvprof and nsys importers, and that none of them claims another tool's header.
func TestProfilerMatch(t *testing.T) {
	split := func(s string) []string {
		f, err := splitCSV([]byte(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		return toStrings(f)
	}
	tests := []struct{ header, want string }{
		{`"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"`, "nvprof-metrics"},
		{`"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"`, "nvprof-events"},
		{`"Device","Kernel","Invocations","Event Name","Min","Max","Avg"`, "nvprof-events"},
		{`"Start","Duration","Grid X","Grid Y","Grid Z","Block X","Block Y","Block Z","Registers Per Thread","Static SMem","Dynamic SMem","Size","Throughput","Device","Context","Stream","Name"`, "nvprof-gputrace"},
		{`"Type","Time(%)","Time","Calls","Avg","Min","Max","Name"`, "nvprof-summary"},
		{`"Time(%)","Time","Calls","Avg","Min","Max","Name"`, "nvprof-summary"},
		{`"Device","Count","Avg Size","Min Size","Max Size","Total Size","Total Time",""`, "nvprof-um-summary"},
		{`"Device","Context","Stream","Kernel","Correlation_ID","elapsed_cycles_sm"`, "nvprof-wide"},
		{`"Device","Context","Stream","Kernel","flop_count_sp","flop_count_dp"`, "nvprof-wide"},
		{`Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name`, "nsys-cuda-gpu-kern-sum"},
		{`Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,Name`, "nsys-cuda-gpu-kern-sum"},
		{`Start(sec),Duration(nsec),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem,DymSMem,Bytes,Thru(MB/s),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name`, "nsys-gputrace"},
		{`Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name`, "nsys-gputrace"},
		{`Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name`, "nsys-api-sum"},
		{`Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name`, "nsys-api-trace"},
		// Not ours: other nsys reports and ncu pages.
		{`App Time (%),API Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name`, ""},
		{`Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Style,Range`, ""},
		{`Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Category,Operation`, ""},
		{`"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"`, "ncu-details"},
		{`"ID","Process ID","Process Name","Host Name","Kernel Name","Kernel Time","Context","Stream","Section Name","Metric Name","Metric Unit","Metric Value"`, "ncu-details"},
		{`"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","dram__bytes.sum"`, "ncu-raw"},
		{`"Process ID","Process Name","Host Name","Kernel Name","Block Size","Grid Size","Device","CC","Invocations","Section Name","Metric Name","Metric Unit","Minimum","Maximum","Average"`, "ncu-summary"},
	}
	mine := map[string]bool{}
	for _, f := range append(append([]string{}, nvprofFormats...), nsysFormats...) {
		mine[f] = true
	}
	for _, tt := range tests {
		t.Run(tt.header, func(t *testing.T) {
			h := split(tt.header)
			var got []string
			for _, imp := range importers {
				if mine[imp.Name()] && imp.Match(h) {
					got = append(got, imp.Name())
				}
			}
			want := ""
			if mine[tt.want] {
				want = tt.want
			}
			if strings.Join(got, ",") != want {
				t.Errorf("%s: matched by %v, want %q only", tt.header, got, want)
			}
		})
	}
}

// TestTraceLaunchFieldsRepeat holds a launch whose fields are the bytes
// of the launch before taking that launch's values, and one that differs
// in a field reading its own (launchColumns.fill keeps the row before).
func TestTraceLaunchFieldsRepeat(t *testing.T) {
	b, err := os.ReadFile("testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	// The second launch of the trace.
	i := lineIndex(lines, 0, "587.796940") + 1
	for !strings.Contains(lines[i], ",32,32,1,27,") {
		i++
	}
	lines[i] = strings.Replace(lines[i], ",32,32,1,27,", ",16,32,1,26,", 1)
	lines[i] = strings.Replace(lines[i], "\"7\",\"void", "\"8\",\"void", 1)
	run, err := Read(strings.NewReader(strings.Join(lines, "")), "in.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	ks := run.Kernels
	if len(ks) < 4 {
		t.Fatalf("%d kernels", len(ks))
	}
	var odd int
	for j, k := range ks {
		if k.Block[0] == 16 {
			odd = j
		}
	}
	if odd == 0 || odd+1 == len(ks) {
		t.Fatalf("the changed launch not found (%d)", odd)
	}
	got, before, after := ks[odd], ks[odd-1], ks[odd+1]
	if got.Block != (profan.Dim3{16, 32, 1}) || got.Registers != 26 || got.Stream != "8" {
		t.Errorf("changed launch: block %v, registers %d, stream %q", got.Block, got.Registers, got.Stream)
	}
	for _, k := range []*profan.Kernel{before, after} {
		if k.Block != (profan.Dim3{32, 32, 1}) || k.Registers != 27 || k.Stream != "7" || k.Grid != got.Grid ||
			k.Device != got.Device || k.DeviceIndex != got.DeviceIndex || k.Context != got.Context {
			t.Errorf("launch %s: %+v", k.ID, *k)
		}
	}
}

// TestStripCorrelation holds stripCorrelation, of a string or bytes, to
// what nvprof's "name [1073]" means: the name and the digits of a
// " [digits]" suffix, else the text unchanged (as strings.LastIndex of
// " [" found it before).
func TestStripCorrelation(t *testing.T) {
	old := func(s string) (string, string) {
		if !strings.HasSuffix(s, "]") {
			return s, ""
		}
		open := strings.LastIndex(s, " [")
		if open < 0 {
			return s, ""
		}
		digits := s[open+2 : len(s)-1]
		if digits == "" {
			return s, ""
		}
		for _, c := range digits {
			if c < '0' || c > '9' {
				return s, ""
			}
		}
		return s[:open], digits
	}
	cases := []string{"", "]", "[]", " []", " [1]", "k [1]", "k [12a]", "k[12]", "k  [12]", "k [1] [2]", "k [x] [23]", "[CUDA memcpy HtoD]",
		"void f(int [3]) [1073]", "a [ 1]", "k [١]", "x]", "k [0012]"}
	for _, s := range cases {
		n, id := stripCorrelation(s)
		wn, wid := old(s)
		bn, bid := stripCorrelation([]byte(s))
		if n != wn || id != wid || string(bn) != wn || string(bid) != wid {
			t.Errorf("%q: %q %q (bytes %q %q), want %q %q", s, n, id, bn, bid, wn, wid)
		}
	}
}

// TestNewKernelSlab holds a kernel from the table's slab equal to
// profan.NewKernel's, every field (a NaN by its bits).
func TestNewKernelSlab(t *testing.T) {
	var tb table
	for range kernelSlab + 2 {
		if got, want := fmt.Sprintf("%#v", *tb.newKernel()), fmt.Sprintf("%#v", *profan.NewKernel()); got != want {
			t.Fatalf("slab kernel\n%s\nwant\n%s", got, want)
		}
	}
}
