package ingest

import (
	"strings"
	"testing"
)

func TestNsysGolden(t *testing.T) { checkGoldenDir(t, "nsys") }

func TestNsysCounts(t *testing.T) {
	checkCounts(t, "nsys", []sampleCount{
		{"cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv", 229, 67, 0, "nsys-gputrace", "852", "cask_cudnn::computeOffsetsKernel(cask_cudnn::ComputeOffsetsParams)"},
		{"llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv", 128, 0, 0, "nsys-cuda-gpu-kern-sum", "", ""},
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

var nsysBadInputs = []badInput{
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

var nsysFormats = []string{"nsys-cuda-gpu-kern-sum", "nsys-gputrace"}

func FuzzNsys(f *testing.F) {
	addSeeds(f, "nsys")
	for _, b := range nsysBadInputs {
		f.Add([]byte(b.in))
	}
	f.Add([]byte(nsysTrace2024))
	f.Add([]byte(nsysKernSum2021))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzRead(t, data, nsysFormats) })
}

// Newer and older nsys spellings, from the nsys report scripts' headers.
const (
	nsysTrace2024 = "Start (ns),Duration (ns),CorrId,GrdX,GrdY,GrdZ,BlkX,BlkY,BlkZ,Reg/Trd,StcSMem (MB),DymSMem (MB),Bytes (MB),Throughput (MB/s),SrcMemKd,DstMemKd,Device,Ctx,GreenCtx,Strm,Name\n" +
		"1134711990,661398,123,,,,,,,,,,4.194,6337.593,Pinned,Device,NVIDIA RTX 5000 Ada Generation Laptop GPU (0),1,,13,[CUDA memcpy Host-to-Device]\n" +
		"9961685,2707098,67,1,1,2304,128,1,1,160,0.000,0.025,,,,,GPU,1,,7,kernel_cutlass_kernel_example_1\n"
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
