package ingest

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/golden"
)

// headLines is the first n lines of b.
func headLines(b []byte, n int) []byte {
	end := 0
	for i := 0; i < n && end < len(b); i++ {
		j := bytes.IndexByte(b[end:], '\n')
		if j < 0 {
			return b
		}
		end += j + 1
	}
	return b[:end]
}

func TestNsysGolden(t *testing.T) { checkGoldenDir(t, "nsys") }

func TestNsysCounts(t *testing.T) {
	checkCounts(t, "nsys", []sampleCount{
		{"cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv", 229, 67, 0, "nsys-gputrace", "852", "cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)"},
		{"llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv", 128, 0, 0, "nsys-cuda-gpu-kern-sum", "", ""},
		{"cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv", 0, 0, 33, "nsys-api-sum", "", ""},
		{"tensoriterator-rtx3090-nsys2022-stats-cudaapisum-osrtsum.csv", 0, 0, 28, "nsys-api-sum", "", ""},
	})
}

// TestNsysUnits pins conversions checked by hand against the samples.
func TestNsysUnits(t *testing.T) {
	run, err := ReadFile("testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 12.944439,2400,132,…,6912,2880.000,Pageable,Device,…: MB/s is 1e6 B/s.
	a := run.Activities[0]
	if a.Kind != "memcpy HtoD" || a.Bytes != 6912 || !near(a.Duration, 2400e-9) || !near(a.Throughput, 2880e6) ||
		!near(a.Start, 12.944439) || a.Correlation != "132" || a.SrcMemType != "Pageable" || a.DstMemType != "Device" {
		t.Errorf("first copy: got %+v", *a)
	}
	k := run.Kernels[1]
	if k.ID != "853" || k.Grid != [3]int{6272, 1, 1} || k.Block != [3]int{128, 1, 1} || k.Registers != 128 ||
		k.StaticSMem != 16384 || k.DynamicSMem != 0 || !near(k.Duration, 375294e-9) || k.Device != "Tesla V100-SXM2-16GB" || k.DeviceIndex != 0 || k.Stream != "7" {
		t.Errorf("volta_scudnn kernel: got %s", k)
	}
	run, err = ReadFile("testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 30.0,190723047,51146,3729.0,3712.0,2143,6592,382.6,"std::enable_if<…"
	k = run.Kernels[0]
	m, _ := k.Metric("duration")
	med, _ := k.Metric("duration_median")
	total, _ := k.Metric("gpu_time_total")
	if k.Invocations != 51146 || !near(k.Duration, 3729e-9) || !near(m.Min, 2143e-9) || !near(m.Max, 6592e-9) ||
		!near(med.Value, 3712e-9) || !near(total.Value, 0.190723047) {
		t.Errorf("gemvx summary: got %s", k)
	}
}

// TestNsysHostCalls pins the API summaries and the API trace against
// their rows, read by hand.
// TestNsysAPISum: cudaapisum and osrtsum of one report, one header for both.
func TestNsysAPISum(t *testing.T) {
	run, err := ReadFile("testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 93.2,12583106898,1403,8968714.8,934.0,705,218761558,21182350.5,cudaDeviceSynchronize
	c := run.APICalls[0]
	if c.Name != "cudaDeviceSynchronize" || c.OS || c.Calls != 1403 || !near(c.Total, 12.583106898) || !near(c.Avg, 8968714.8e-9) ||
		!near(c.Min, 705e-9) || !near(c.Max, 0.218761558) {
		t.Errorf("first CUDA API row: got %+v", *c)
	}
	// osrtsum: 50.0,17429803591,186,93708621.5,100170080.5,19315,100202106,23537328.4,poll
	c = run.APICalls[9]
	if c.Name != "poll" || !c.OS || c.Calls != 186 || !near(c.Total, 17.429803591) {
		t.Errorf("first OS runtime row: got %+v", *c)
	}
	for _, c := range run.APICalls[:9] {
		if c.OS {
			t.Errorf("cudaapisum row %q read as an OS runtime call", c.Name)
		}
	}
}

// TestNsysHostCalls: an API trace before the GPU trace of one report: the
// kernels joined to their launch calls, the calls summed as the report's
// own summary sums them, the synchronisations and copies kept.
func TestNsysHostCalls(t *testing.T) {
	run, err := ReadFile("testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Format != "nsys-api-trace+nsys-gputrace" || len(run.Kernels) != 1000 || run.Host == nil || run.Host.Launches != 1000 {
		t.Fatalf("API and GPU trace: got format %q, %d kernels, host %+v", run.Format, len(run.Kernels), run.Host)
	}
	// The first row: 1085868817,152692808,cudaMalloc,0,206,24694,24694,20,add;
	// the first launch: 3991339606,1525967,cudaLaunchKernel,0,227,...
	if !near(run.Host.Start, 1.085868817) {
		t.Errorf("host start %v, want 1.085868817", run.Host.Start)
	}
	k := run.Kernels[0]
	if k.ID != "227" || !near(k.Launched, 3.991339606+1525967e-9) {
		t.Errorf("first kernel: ID %s launched %v, want 227 at 3.992865573", k.ID, k.Launched)
	}
	checkTraceSums(t, run)
	checkHostEvents(t, run)
}

// checkTraceSums: cudaapisum of the same report has 6 cudaMemcpy, 10
// cudaDeviceSynchronize, 1000 cudaLaunchKernel, 3 cudaMalloc; the trace's
// sums must agree.
func checkTraceSums(t *testing.T, run *profan.Run) {
	t.Helper()
	want := map[string]int{"cudaMemcpy": 6, "cudaMalloc": 3, "cudaLaunchKernel": 1000, "cudaDeviceSynchronize": 10}
	for _, c := range run.APICalls {
		if want[c.Name] != c.Calls {
			t.Errorf("%s: %d calls summed from the trace, the summary has %d", c.Name, c.Calls, want[c.Name])
		}
		delete(want, c.Name)
	}
	if len(want) > 0 {
		t.Errorf("calls missing from the trace's sums: %v", want)
	}
}

// checkHostEvents: the trace's 10 synchronisations and 6 copies are the
// host events, runtime calls of the one thread.
func checkHostEvents(t *testing.T, run *profan.Run) {
	t.Helper()
	var syncs, copies int
	for _, e := range run.Host.Events {
		switch e.Name {
		case "cudaDeviceSynchronize":
			syncs++
		case "cudaMemcpy":
			copies++
		}
		if e.Kind != profan.HostRuntime || e.Thread != "24694" {
			t.Errorf("host event %+v: want a runtime call of thread 24694", *e)
		}
	}
	if syncs != 10 || copies != 6 || len(run.Host.Events) != 16 {
		t.Errorf("host events: %d syncs, %d copies of %d, want 10, 6 of 16", syncs, copies, len(run.Host.Events))
	}
}

// TestNsysHostOnce: the summary and the trace of one report hold the
// same calls, counted once whichever comes first.
func TestNsysHostOnce(t *testing.T) {
	trace := golden.Gunzip(t, "testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz")
	sum, err := os.ReadFile("testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapisum-osrtsum.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{append(append([]byte{}, trace...), sum...), append(append([]byte{}, sum...), trace...)} {
		run, err := Read(bytes.NewReader(in), "both.csv", Options{}, Sink{})
		if err != nil {
			t.Fatal(err)
		}
		n := map[string]int{}
		for _, c := range run.APICalls {
			n[c.Name] += c.Calls
		}
		if n["cudaLaunchKernel"] != 1000 || n["cudaMemcpy"] != 6 || n["poll"] != 183 {
			t.Errorf("format %s: launches %d, copies %d, polls %d; want 1000, 6, 183", run.Format, n["cudaLaunchKernel"], n["cudaMemcpy"], n["poll"])
		}
	}
}

const (
	nsysAPISumHeader   = "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
	nsysAPITraceHeader = "Start (ns),Duration (ns),Name,Result,CorrID,Pid,Tid,T-Pri,Thread Name\n"
)

var nsysBadInputs = []badInput{
	{"api_sum header only", nsysAPISumHeader, 1, "no rows"},
	{"api_sum truncated", nsysAPISumHeader + "93.2,12583106898,1403,8968714.8\n", 2, "truncated row"},
	{"api_sum no calls", nsysAPISumHeader + "93.2,12583106898,0,8968714.8,934.0,705,218761558,21182350.5,cudaDeviceSynchronize\n", 2, `"Num Calls"`},
	{"api_sum garbage", nsysAPISumHeader + "93.2,12583106898,1403,8968714.8,934.0,705,x,21182350.5,cudaDeviceSynchronize\n", 2, `column "Max (ns)": "x" is not a number`},
	{"api_sum rows lost", nsysAPISumHeader + "3.0,400493468,306,1308802.2,1219940.5,739613,2361568,309494.5,cudaMemcpy\n", 2, "sums to 3.00%"},
	{"api_trace header only", nsysAPITraceHeader, 1, "no rows"},
	{"api_trace truncated", nsysAPITraceHeader + "92074361,218761558,cudaDeviceSynchronize,0,614,3014736,3014736,20,CUFCM\n313246540,255446,cudaMalloc\n", 3, "row has 3 fields, the header has 9"},
	{"api_trace no start", nsysAPITraceHeader + ",218761558,cudaDeviceSynchronize,0,614,3014736,3014736,20,CUFCM\n", 2, "no start or duration"},
	{"api_trace garbage", nsysAPITraceHeader + "92074361,long,cudaDeviceSynchronize,0,614,3014736,3014736,20,CUFCM\n", 2, `column "Duration (ns)": "long" is not a number`},
	{"gputrace header only", "Start(sec),Duration(nsec),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem,DymSMem,Bytes,Thru(MB/s),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name\n", 1, "no rows"},
	{"gputrace truncated", "Start(sec),Duration(nsec),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem,DymSMem,Bytes,Thru(MB/s),SrcMemKd,DstMemKd,Device,Ctx,Strm,Name\n" +
		"15.871098,8512,852,197,1,1,256,1,1,38,0,0,,,,,Tesla V100-SXM2-16GB (0),1,7,k\n15.871154,375294,853,6272,1,1\n", 3, "row has 6 fields, the header has 20"},
	{"gputrace garbage", "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n" +
		"9961685,2707098,67,1,1,2304,128,1,1,160,0.000,zero,,,,,GPU,1,,7,kernel_a\n", 2, `column "DymSMem (MB)": "zero" is not a number`},
	{"gputrace bad unit", "Start(sec),Duration(KB),CorrId,GrdX,Name\n1,1,1,1,k\n", 1, `unit "KB"`},
	{"kern_sum header only", "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n", 1, "no rows"},
	{"kern_sum truncated", "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n30.0,190723047,51146,3729.0\n", 2, "truncated row"},
	{"kern_sum garbage", "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n30.0,190723047,51146,3729.0,3712.0,2143,6592,n.a.,k\n", 2, `column "StdDev (ns)": "n.a." is not a number`},
	{"kern_sum no instances", "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n30.0,190723047,0,3729.0,3712.0,2143,6592,1,k\n", 2, `"Instances"`},
}

func TestNsysError(t *testing.T) {
	for _, tt := range nsysBadInputs {
		t.Run(tt.name, func(t *testing.T) { checkReadError(t, tt.in, tt.line, tt.want) })
	}
}

var nsysFormats = []string{"nsys-cuda-gpu-kern-sum", "nsys-gputrace", "nsys-api-sum", "nsys-api-trace"}

func FuzzNsys(f *testing.F) {
	skipShort(f)
	addSeeds(f, "nsys")
	for _, b := range nsysBadInputs {
		f.Add([]byte(b.in))
	}
	f.Add([]byte(nsysTrace2024))
	f.Add([]byte(nsysKernSum2021))
	for _, path := range []string{"cufcm-rtx2080ti-nsys2022-stats-cudaapitrace-gputrace.csv.gz", "tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz"} {
		// The head of each table of the API and GPU trace, so that the
		// fuzzer meets both and their join.
		b := golden.Gunzip(f, "testdata/nsys/"+path)
		api, gpu, _ := bytes.Cut(b, []byte("\n\nProcessing"))
		f.Add(append(headLines(api, 40), headLines(gpu, 40)...))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, nsysFormats) })
}

// Newer and older nsys spellings, from the nsys report scripts' headers
// (a trace's rows in start order, as nsys writes them).
const (
	nsysTrace2024 = "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n" +
		"9961685,2707098,67,1,1,2304,128,1,1,160,0.000,0.025,,,,,GPU,1,,7,kernel_cutlass_kernel_example_1\n" +
		"1134711990,661398,123,,,,,,,,,,4.194,6337.593,Pinned,Device,NVIDIA RTX 5000 Ada Generation Laptop GPU (0),1,,13,[CUDA memcpy Host-to-Device]\n"
	nsysKernSum2021 = "Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,Name\n" +
		"100.0,1000,4,250.0,200,300,\"k<int, float>(int)\"\n"
)

func TestNsysVariants(t *testing.T) {
	run, err := Read(strings.NewReader(nsysTrace2024), "trace.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Kernels) != 1 || len(run.Activities) != 1 {
		t.Fatalf("cuda_gpu_trace: got %d kernels, %d activities; want 1, 1", len(run.Kernels), len(run.Activities))
	}
	a, k := run.Activities[0], run.Kernels[0]
	if a.Kind != "memcpy HtoD" || !near(a.Bytes, 4.194e6) || !near(a.Throughput, 6337.593e6) || !near(a.Start, 1.13471199) || a.Stream != "13" {
		t.Errorf("cuda_gpu_trace copy: got %+v", *a)
	}
	if k.ID != "67" || k.Grid != [3]int{1, 1, 2304} || !near(k.DynamicSMem, 25000) || k.Registers != 160 || k.Device != "GPU" || k.DeviceIndex != -1 {
		t.Errorf("cuda_gpu_trace kernel: got %s", k)
	}
	run, err = Read(strings.NewReader(nsysKernSum2021), "sum.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Format != "nsys-cuda-gpu-kern-sum" || len(run.Kernels) != 1 {
		t.Fatalf("gpukernsum: got format %q with %d kernels", run.Format, len(run.Kernels))
	}
	k = run.Kernels[0]
	m, _ := k.Metric("duration")
	if k.Name != "k<int, float>(int)" || k.Invocations != 4 || !near(k.Duration, 250e-9) || !near(m.Min, 200e-9) || !near(m.Max, 300e-9) {
		t.Errorf("gpukernsum kernel: got %s", k)
	}
	if _, ok := k.Metric("duration_median"); ok {
		t.Errorf("gpukernsum kernel: has a median, the export has none")
	}
}
