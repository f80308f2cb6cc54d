package analysis_test

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/golden"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/kernelname"
)

// sweepShare is the reference busy share of a list of intervals, made
// apart from the timeline's code: the endpoints sorted, a counter of the
// intervals open, the time it is above zero over the first start to the
// last end.
func sweepShare(iv [][2]float64) (busy, span float64) {
	type ev struct {
		t float64
		d int
	}
	var evs []ev
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range iv {
		evs = append(evs, ev{x[0], 1}, ev{x[1], -1})
		lo, hi = math.Min(lo, x[0]), math.Max(hi, x[1])
	}
	sort.Slice(evs, func(i, j int) bool {
		if evs[i].t != evs[j].t {
			return evs[i].t < evs[j].t
		}
		return evs[i].d > evs[j].d
	})
	open, last := 0, 0.0
	for _, e := range evs {
		if open > 0 {
			busy += e.t - last
		}
		open += e.d
		last = e.t
	}
	return busy, hi - lo
}

// rawIntervals reads the start and duration columns of a trace CSV with
// encoding/csv: startCol and durCol by header name, scaled by the given
// factors to seconds; rows before the header and the units row skipped.
func rawIntervals(t *testing.T, path, startCol, durCol string, startScale, durScale float64) [][2]float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]float64
	si, di := -1, -1
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "==") || strings.TrimSpace(line) == "" {
			continue
		}
		r := csv.NewReader(strings.NewReader(line))
		rec, err := r.Read()
		if err != nil {
			t.Fatal(err)
		}
		if si < 0 {
			for i, h := range rec {
				switch h {
				case startCol:
					si = i
				case durCol:
					di = i
				}
			}
			continue
		}
		s, err1 := strconv.ParseFloat(rec[si], 64)
		d, err2 := strconv.ParseFloat(rec[di], 64)
		if err1 != nil || err2 != nil {
			continue // the units row
		}
		out = append(out, [2]float64{s * startScale, s*startScale + d*durScale})
	}
	return out
}

// TestTimelineBusyShare holds the GPU busy share of real traces to the
// share computed from their raw rows.
func TestTimelineBusyShare(t *testing.T) {
	for _, c := range []struct {
		path, start, dur string
		ss, ds           float64
	}{
		{"../ingest/testdata/nvprof/tkm-gtx950-maxwell-two-streams.csv", "Start", "Duration", 1e-3, 1e-6},
		{"../ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", "Start", "Duration", 1e-3, 1e-3},
		{"../ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv", "Start(sec)", "Duration(nsec)", 1, 1e-9},
	} {
		run, err := ingest.ReadFile(c.path, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		v := analysis.AnalyzeRun(run, analysis.Options{})
		tl := v.Timeline
		if tl == nil {
			t.Fatalf("%s: no timeline", c.path)
		}
		busy, span := sweepShare(rawIntervals(t, c.path, c.start, c.dur, c.ss, c.ds))
		if d := math.Abs(tl.BusyShare - busy/span); d > 0.03 {
			t.Errorf("%s: busy share %.4f, raw rows give %.4f", c.path, tl.BusyShare, busy/span)
		}
		var idle float64
		for _, i := range tl.Idle {
			idle += i.Seconds
		}
		if math.Abs(tl.Busy+idle-tl.Span) > 1e-9*math.Max(1, tl.Span) {
			t.Errorf("%s: busy %g + idle %g != span %g", c.path, tl.Busy, idle, tl.Span)
		}
		t.Logf("%s: span %.6f s busy %.4f (raw %.4f) idle %+v streams %d", c.path, tl.Span, tl.BusyShare, busy/span, tl.Idle, len(tl.Devices[0].Streams))
	}
}

// torchReference reads a PyTorch trace apart from the importer, with
// encoding/json reading the whole document: the GPU intervals (kernels,
// copies, memsets) and the host's extent (runtime and driver calls, aten
// ops, annotations, Python frames), in seconds.
func torchReference(t *testing.T, path string) (gpu [][2]float64, hostLo, hostHi float64) {
	t.Helper()
	var doc struct {
		TraceEvents []struct {
			Ph, Cat string
			TS, Dur float64
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(golden.Gunzip(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	hostLo, hostHi = math.Inf(1), math.Inf(-1)
	for _, e := range doc.TraceEvents {
		if e.Ph != "X" {
			continue
		}
		iv := [2]float64{e.TS * 1e-6, (e.TS + e.Dur) * 1e-6}
		switch e.Cat {
		case "kernel", "gpu_memcpy", "gpu_memset":
			gpu = append(gpu, iv)
		case "cuda_runtime", "cuda_driver", "cpu_op", "user_annotation", "python_function":
			hostLo, hostHi = math.Min(hostLo, iv[0]), math.Max(hostHi, iv[1])
		}
	}
	return gpu, hostLo, hostHi
}

// TestTimelineTorch holds the busy share of the real PyTorch traces to the
// one computed from their raw events (the span runs from the first host
// or GPU start to the last end), and the idle causes to what each trace
// was captured to show.
func TestTimelineTorch(t *testing.T) {
	for _, c := range []struct {
		name     string
		cause    string  // the largest idle cause
		minShare float64 // of the span
		call     string  // the call and op behind a cause, "" for none
	}{
		// Traced with the stack: a fifth of the gaps are the user's
		// Python between the ops (other Python), not launches.
		{"decode_sync", analysis.IdleLaunch, 0.6, "sync:cudaStreamSynchronize:aten::item"},
		{"decode_nosync", analysis.IdleLaunch, 0.8, ""},
		{"decode_graphs", analysis.IdleQueued, 0.1, ""},
		{"train_small", analysis.IdleLaunch, 0.7, "copy:cudaMemcpyAsync:autograd::engine::evaluate_function: PowBackward0"},
		{"copy_pageable", analysis.IdleLaunch, 0.01, "copy:cudaMemcpyAsync:aten::to"},
	} {
		if testing.Short() && c.name == "decode_nosync" {
			continue // the largest trace; CI reads it
		}
		path := "../../fixtures/timeline/" + c.name + ".json.gz"
		run, err := ingest.ReadFile(path, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tl := analysis.AnalyzeRun(run, analysis.Options{}).Timeline
		gpu, lo, hi := torchReference(t, path)
		busy, _ := sweepShare(gpu)
		for _, iv := range gpu {
			lo, hi = math.Min(lo, iv[0]), math.Max(hi, iv[1])
		}
		want := busy / (hi - lo)
		if math.Abs(tl.BusyShare-want) > 0.03 {
			t.Errorf("%s: busy share %.4f, the raw events give %.4f", c.name, tl.BusyShare, want)
		}
		if math.Abs(tl.Span-(hi-lo)) > 1e-6 {
			t.Errorf("%s: span %.6f s, the raw events give %.6f s", c.name, tl.Span, hi-lo)
		}
		var idle float64
		top := analysis.Idle{}
		for _, i := range tl.Idle {
			idle += i.Seconds
			if i.Seconds > top.Seconds {
				top = i
			}
		}
		if math.Abs(tl.Busy+idle-tl.Span) > 1e-9 {
			t.Errorf("%s: busy %g + idle %g != span %g", c.name, tl.Busy, idle, tl.Span)
		}
		if top.Cause != c.cause || top.Share < c.minShare {
			t.Errorf("%s: largest idle %s at %.3f of the span, want %s at %.2f or more", c.name, top.Cause, top.Share, c.cause, c.minShare)
		}
		if c.call != "" {
			parts := strings.SplitN(c.call, ":", 3)
			found := false
			for _, ic := range tl.IdleOf(parts[0]).Calls {
				found = found || ic.Name == parts[1] && ic.Op == parts[2]
			}
			if !found {
				t.Errorf("%s: %s idle not put on %s in %s: %+v", c.name, parts[0], parts[1], parts[2], tl.IdleOf(parts[0]).Calls)
			}
		}
		if tl.HostLaunch.Calls+tl.HostLaunch.Graphs > tl.LaunchCount || (tl.HostLaunch.Calls != tl.LaunchCount && c.name != "decode_graphs") {
			t.Errorf("%s: %d launch calls for %d kernels", c.name, tl.HostLaunch.Calls, tl.LaunchCount)
		}
		t.Logf("%s: span %.3f ms, busy %.3f (raw %.3f), largest idle %s %.3f, host launch %.2f us", c.name, tl.Span*1e3, tl.BusyShare, want, top.Cause, top.Share, tl.HostLaunch.Mean*1e6)
	}
}

// TestTimelineCopies: pageable copies leave more copy time on the
// critical path than pinned ones; a copy on a second stream runs beside
// the kernels.
func TestTimelineCopies(t *testing.T) {
	get := func(name string) *analysis.Timeline {
		run, err := ingest.ReadFile("../../fixtures/timeline/"+name+".json.gz", ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return analysis.AnalyzeRun(run, analysis.Options{}).Timeline
	}
	pageable, pinned, stream := get("copy_pageable"), get("copy_pinned"), get("copy_stream")
	if !(pageable.CopyExposed > 2*pinned.CopyExposed) || pageable.Overlap != 0 || pinned.Overlap != 0 {
		t.Errorf("exposed copy time: pageable %.3f ms, pinned %.3f ms", pageable.CopyExposed*1e3, pinned.CopyExposed*1e3)
	}
	if stream.Overlap < 0.5*(stream.Overlap+stream.CopyExposed) || len(stream.Devices[0].Streams) != 2 {
		t.Errorf("second stream: overlap %.3f ms, exposed %.3f ms, %d streams", stream.Overlap*1e3, stream.CopyExposed*1e3, len(stream.Devices[0].Streams))
	}
}

// TestTraceKernelVerdict: the kernel-level verdict reads a trace's kernel
// names as it reads an ncu export's: the FP32 training step's GEMMs are
// found on the FMA pipes and tensor cores (bf16 autocast or TF32) come
// first.
func TestTraceKernelVerdict(t *testing.T) {
	run, err := ingest.ReadFile("../../fixtures/timeline/train_large.json.gz", ingest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v := analysis.AnalyzeRun(run, analysis.Options{})
	gr := analysis.NewGrouper(false)
	gr.Recommender = allRules
	for _, k := range v.Kernels {
		gr.Add(k)
	}
	app := gr.App()
	if len(app.Categories) == 0 || app.Categories[0].Category != kernelname.CatFP32Math || app.Categories[0].Share < 0.5 {
		t.Fatalf("categories %+v", app.Categories)
	}
	var got []string
	for _, r := range app.Recommendations {
		got = append(got, r.Rule)
	}
	if len(got) < 2 || got[0] != "bf16-autocast" && got[0] != "tf32" {
		t.Fatalf("recommendations %v, want bf16 autocast or TF32 first", got)
	}
}

// TestTraceJoin: the training step's trace joined to its ncu export (two
// processes of the same program, fixtures/check7): every launch pairs by
// name and order, each with the same grid and block.
func TestTraceJoin(t *testing.T) {
	var vs []*analysis.RunVerdict
	for _, f := range []string{"../../fixtures/check7/train.default.json.gz", "../../fixtures/check7/train.pair.default.csv.gz"} {
		run, err := ingest.ReadFile(f, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, analysis.AnalyzeRun(run, analysis.Options{}))
	}
	js := analysis.Joins(vs)
	if len(js) != 1 {
		t.Fatalf("joins %+v", js)
	}
	j := js[0]
	t.Logf("%+v", j)
	if j.TraceLaunches != 1132 || j.ExportLaunch != 1132 || j.Matched != 1132 || j.SameShape != 1132 {
		t.Errorf("join %+v: want all 1,132 launches matched, with the same grid and block", j)
	}
	for _, c := range [][2]string{
		{"void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, long)", "cunn_SoftMaxBackward"},
		{"void cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>(cutlass_80_simt_sgemm_128x256_8x4_nt_align1::Params)", "Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>"},
		{"sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"},
	} {
		if got := analysis.JoinKey(c[0]); got != c[1] {
			t.Errorf("JoinKey(%.40q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// nsysReference reads an nsys stats export of an API trace and a GPU
// trace (gzip-compressed) apart from the importers, with encoding/csv:
// the GPU intervals and the host calls' extent, in seconds, and the
// calls counted by name.
func nsysReference(t *testing.T, path string) (gpu [][2]float64, hostLo, hostHi float64, calls map[string]int) {
	t.Helper()
	b := golden.Gunzip(t, path)
	hostLo, hostHi, calls = math.Inf(1), math.Inf(-1), map[string]int{}
	table := ""
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "Start (ns),Duration (ns),Name,"):
			table = "api"
			continue
		case strings.HasPrefix(line, "Start (ns),Duration (ns),CorrId,"):
			table = "gpu"
			continue
		case line == "" || line[0] < '0' || line[0] > '9':
			continue
		}
		rec, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			t.Fatal(err)
		}
		s, err1 := strconv.ParseFloat(rec[0], 64)
		d, err2 := strconv.ParseFloat(rec[1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %q", path, line)
		}
		iv := [2]float64{s * 1e-9, (s + d) * 1e-9}
		if table == "gpu" {
			gpu = append(gpu, iv)
			continue
		}
		hostLo, hostHi = math.Min(hostLo, iv[0]), math.Max(hostHi, iv[1])
		calls[rec[2]]++
	}
	return gpu, hostLo, hostHi, calls
}

// TestTimelineNsysHost holds the timeline of nsys API and GPU traces read
// together (nsys stats --report cuda_api_trace,cuda_gpu_trace) to the raw
// rows: the busy share and span with the host calls' extent, the launch
// calls and the kernels they queued, and the idle put on the host calls
// each program makes (cuFCM's cudaDeviceSynchronize between steps; the
// add loop's synchronous cudaMemcpy). Only the time the host is inside
// a sync is the sync's: the add loop's host filling the next input
// after its cudaDeviceSynchronize returned (2.28 s in 6 gaps) is other
// host work, and so is cuFCM's own host code between a sync and its
// next call (0.74 s of its 1.04 s after syncs). A copy or memset call is charged at
// most its own time: cuFCM's one cudaMemset, which starts late in a
// 0.74 s gap, gets its 49 µs, not the gap.
func TestTimelineNsysHost(t *testing.T) {
	for _, c := range []struct {
		name, cause, call string
	}{
		{"cufcm-rtx2080ti", analysis.IdleSync, "cudaDeviceSynchronize"},
		{"tensoriterator-rtx3090", analysis.IdleSync, "cudaMemcpy"},
	} {
		path := "../ingest/testdata/nsys/" + c.name + "-nsys2022-stats-cudaapitrace-gputrace.csv.gz"
		run, err := ingest.ReadFile(path, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tl := analysis.AnalyzeRun(run, analysis.Options{}).Timeline
		if tl == nil {
			t.Fatalf("%s: no timeline", c.name)
		}
		gpu, lo, hi, calls := nsysReference(t, path)
		busy, _ := sweepShare(gpu)
		for _, iv := range gpu {
			lo, hi = math.Min(lo, iv[0]), math.Max(hi, iv[1])
		}
		if want := busy / (hi - lo); math.Abs(tl.BusyShare-want) > 1e-6 {
			t.Errorf("%s: busy share %.6f, the raw rows give %.6f", c.name, tl.BusyShare, want)
		}
		if math.Abs(tl.Span-(hi-lo)) > 1e-6 {
			t.Errorf("%s: span %.6f s, the raw rows give %.6f s", c.name, tl.Span, hi-lo)
		}
		var idle float64
		for _, i := range tl.Idle {
			idle += i.Seconds
		}
		if math.Abs(tl.Busy+idle-tl.Span) > 1e-9*tl.Span {
			t.Errorf("%s: busy %g + idle %g != span %g", c.name, tl.Busy, idle, tl.Span)
		}
		if launches := calls["cudaLaunchKernel"] + calls["cuLaunchKernel"]; tl.HostLaunch.Calls != launches || tl.LaunchCount != launches {
			t.Errorf("%s: %d launch calls and %d kernels on the timeline, the API trace has %d launch calls", c.name, tl.HostLaunch.Calls, tl.LaunchCount, launches)
		}
		joined := 0
		for _, k := range run.Kernels {
			if !math.IsNaN(k.Launched) {
				joined++
			}
		}
		if joined != len(run.Kernels) {
			t.Errorf("%s: %d of %d kernels joined to their launch call", c.name, joined, len(run.Kernels))
		}
		ic := tl.IdleOf(c.cause).Calls
		if len(ic) == 0 || ic[0].Name != c.call {
			t.Errorf("%s: %s idle on %+v, want %s first", c.name, c.cause, ic, c.call)
		}
		own := map[string]float64{}
		for _, e := range run.Host.Events {
			own[e.Name] += e.Duration
		}
		for _, ic := range tl.IdleOf(analysis.IdleCopy).Calls {
			if ic.Seconds > own[ic.Name] {
				t.Errorf("%s: %.6f s of idle on %s, which ran %.6f s in all", c.name, ic.Seconds, ic.Name, own[ic.Name])
			}
		}
		if c.name == "tensoriterator-rtx3090" {
			if sync, other := tl.IdleOf(analysis.IdleSync).Seconds, tl.IdleOf(analysis.IdleOther).Seconds; sync > 0.01 || other < 2 {
				t.Errorf("%s: %.3f s of sync idle, %.3f s of other host work: the host fills the next input after the sync returned", c.name, sync, other)
			}
		}
		t.Logf("%s: span %.3f s, busy %.4f, idle %+v", c.name, tl.Span, tl.BusyShare, tl.Idle)
	}
}

// TestTimelineNsysTracesApart: nsys stats --output writes the API trace
// and the GPU trace of a report to files of their own. Given together,
// in either order, they are the run one export of both makes: the same
// busy share, idle and joins (cuFCM: 73.05% busy, 7,701 kernels joined;
// TensorIterator's add: 85.86%, 1,000). The files are the real combined
// export split at its GPU trace's header.
func TestTimelineNsysTracesApart(t *testing.T) {
	for _, c := range []struct {
		name   string
		busy   float64
		joined int
	}{{"cufcm-rtx2080ti", 0.7305, 7701}, {"tensoriterator-rtx3090", 0.8586, 1000}} {
		if testing.Short() && c.name == "cufcm-rtx2080ti" {
			continue // 7,701 launches; CI reads it
		}
		path := "../ingest/testdata/nsys/" + c.name + "-nsys2022-stats-cudaapitrace-gputrace.csv.gz"
		whole, err := ingest.ReadFile(path, ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := analysis.AnalyzeRun(whole, analysis.Options{}).Timeline
		api, gpu := splitTraces(t, path)
		for _, files := range [][]string{{api, gpu}, {gpu, api}} {
			run := &profan.Run{}
			runs, err := ingest.ReadFiles(files, ingest.Options{}, func(r *profan.Run, k *profan.Kernel) error {
				run = r
				r.Kernels = append(r.Kernels, k)
				return nil
			})
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if len(runs) != 1 || runs[0] != run || run.Format != "nsys-api-trace+nsys-gputrace" {
				t.Fatalf("%s %v: %d runs (format %q), want one of both traces", c.name, files, len(runs), runs[0].Format)
			}
			joined := 0
			for _, k := range run.Kernels {
				if !math.IsNaN(k.Launched) {
					joined++
				}
			}
			tl := analysis.AnalyzeRun(run, analysis.Options{}).Timeline
			if tl == nil || tl.BusyShare != want.BusyShare || math.Round(tl.BusyShare*1e4)/1e4 != c.busy || joined != c.joined {
				t.Fatalf("%s %v: timeline %+v with %d kernels joined; want busy %.4f (as one export gives) and %d joined", c.name, files, tl, joined, c.busy, c.joined)
			}
			if tl.Span != want.Span || tl.HostLaunch.Calls != want.HostLaunch.Calls || tl.HostLaunch.Total != want.HostLaunch.Total || len(tl.Idle) != len(want.Idle) {
				t.Errorf("%s %v: span %g, launch calls %+v, idle %+v; one export gives %g, %+v, %+v", c.name, files, tl.Span, tl.HostLaunch, tl.Idle, want.Span, want.HostLaunch, want.Idle)
			}
			for i := range min(len(tl.Idle), len(want.Idle)) {
				if tl.Idle[i].Cause != want.Idle[i].Cause || tl.Idle[i].Seconds != want.Idle[i].Seconds {
					t.Errorf("%s %v: idle %+v, one export gives %+v", c.name, files, tl.Idle[i], want.Idle[i])
				}
			}
			if len(run.APICalls) != len(whole.APICalls) || len(run.Host.Events) != len(whole.Host.Events) || len(run.Activities) != len(whole.Activities) {
				t.Errorf("%s %v: %d call names, %d host events, %d activities; one export gives %d, %d, %d", c.name, files,
					len(run.APICalls), len(run.Host.Events), len(run.Activities), len(whole.APICalls), len(whole.Host.Events), len(whole.Activities))
			}
		}
	}
}

// splitTraces writes the API trace and the GPU trace of the export of
// both at path to files of their own, as nsys stats --output does.
func splitTraces(t *testing.T, path string) (api, gpu string) {
	t.Helper()
	b := golden.Gunzip(t, path)
	i := strings.Index(string(b), "\nStart (ns),Duration (ns),CorrId,")
	if i < 0 {
		t.Fatalf("%s: no GPU trace header", path)
	}
	dir := t.TempDir()
	api, gpu = dir+"/api.csv", dir+"/gpu.csv"
	if err := os.WriteFile(api, b[:i+1], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gpu, b[i+1:], 0o644); err != nil {
		t.Fatal(err)
	}
	return api, gpu
}

// TestTimelineHost: on the host-bound training steps of fixtures/host8
// and host9,
// the idle time is split by what the launching threads were doing: the
// split and the busy time add up to the span; the main-process DataLoader
// is named with the Dataset's frame; each sync is named by the method
// the user called (.tolist(), .item(), torch.bincount) and its frame; no
// idle time is launch-bound while the host is in the DataLoader or a
// sync.
func TestTimelineHost(t *testing.T) {
	for _, c := range []struct {
		file  string
		data  float64 // data loading's share of the span, at least
		frame string  // the Dataset's frame
		reads []string
	}{
		{"moe.default", 0.3, "host8.py(124): __getitem__", []string{"tolist@host8.py(146): forward", "bincount@host8.py(146): forward", "item@host8.py(235): step"}},
		{"vision.default", 0.8, "host8.py(285): __getitem__", []string{"item@host8.py(326): step"}},
		// fixtures/host9: no DataLoader; the pageable .to() and .item().
		{"../host9/copy.default", 0, "", []string{"to@copy9.py(73): once", "item@copy9.py(73): once"}},
		// fixtures/host10: the gradient norm read between backward and
		// the optimizer; the UNet, which reads nothing in its step.
		{"../host10/split.default", 0, "", []string{"item@host10.py(97): check"}},
		{"../host10/splitl.default", 0, "", []string{"item@host10.py(97): check"}},
		{"../host10/unet4.fp32", 0, "", nil},
	} {
		if testing.Short() && c.file == "vision.default" {
			continue // 5.6 MB of trace; CI reads it
		}
		run, err := ingest.ReadFile("../../fixtures/host8/"+c.file+".json.gz", ingest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Host.Spans) == 0 || run.Host.SpansFolded != 0 {
			t.Fatalf("%s: %d host spans, %d folded", c.file, len(run.Host.Spans), run.Host.SpansFolded)
		}
		tl := analysis.AnalyzeRun(run, analysis.Options{}).Timeline
		sum := tl.Busy
		for _, i := range tl.Idle {
			sum += i.Seconds
		}
		if math.Abs(sum-tl.Span) > 1e-9 {
			t.Errorf("%s: busy + idle %g != span %g", c.file, sum, tl.Span)
		}
		data := tl.IdleOf(analysis.IdleData)
		switch {
		case c.data == 0:
			if data.Seconds != 0 {
				t.Errorf("%s: %.3f ms of data loading, with no DataLoader", c.file, 1e3*data.Seconds)
			}
		case tl.Idle[0].Cause != analysis.IdleData || tl.Idle[0].Share < c.data:
			t.Errorf("%s: first idle cause %s at %.3f, want data loading at %.2f or more", c.file, tl.Idle[0].Cause, tl.Idle[0].Share, c.data)
		case len(data.Calls) == 0 || !strings.HasSuffix(data.Calls[0].Name, c.frame) || !strings.HasPrefix(data.Calls[0].Name, "enumerate(DataLoader)#"):
			t.Errorf("%s: data loading not named by the DataLoader and %s: %+v", c.file, c.frame, data.Calls)
		}
		reads := map[string]bool{}
		for _, cause := range []string{analysis.IdleSync, analysis.IdleCopy} {
			for _, ic := range tl.IdleOf(cause).Calls {
				reads[ic.Method+"@"+ic.Frame] = true
			}
		}
		for _, r := range c.reads {
			if !reads[r] {
				t.Errorf("%s: no sync or copy named %s: %v", c.file, r, reads)
			}
		}
		// Launch-bound time only where the host was inside an aten op
		// while the GPU idled, other Python only where it was in the
		// user's frames, data loading only in the DataLoader: each
		// cause at most the host's time in that state outside the
		// GPU's busy intervals.
		for cause, st := range map[string]profan.HostState{analysis.IdleLaunch: profan.HostDispatch,
			analysis.IdlePython: profan.HostPython, analysis.IdleData: profan.HostData} {
			if got, most := tl.IdleOf(cause).Seconds, hostIdle(run, st); got > most+1e-9 {
				t.Errorf("%s: %.3f ms %s, but the host was in that state %.3f ms of the GPU's idle time", c.file, 1e3*got, cause, 1e3*most)
			}
		}
	}
}

// hostIdle is the time the launching threads spent in state st outside
// every interval a kernel or copy of the run ran.
func hostIdle(run *profan.Run, st profan.HostState) float64 {
	type iv struct{ a, b float64 }
	var busy []iv
	for _, k := range run.Kernels {
		if k.Duration > 0 {
			busy = append(busy, iv{k.Start, k.Start + k.Duration})
		}
	}
	for _, a := range run.Activities {
		if a.Duration > 0 {
			busy = append(busy, iv{a.Start, a.Start + a.Duration})
		}
	}
	sort.Slice(busy, func(i, j int) bool { return busy[i].a < busy[j].a })
	var merged []iv
	for _, x := range busy {
		if n := len(merged); n > 0 && x.a <= merged[n-1].b {
			merged[n-1].b = math.Max(merged[n-1].b, x.b)
			continue
		}
		merged = append(merged, x)
	}
	total := 0.0
	for _, s := range run.Host.Spans {
		if s.State != st {
			continue
		}
		a, b := s.Start, s.End()
		total += b - a
		i := sort.Search(len(merged), func(i int) bool { return merged[i].b > a })
		for ; i < len(merged) && merged[i].a < b; i++ {
			total -= math.Min(b, merged[i].b) - math.Max(a, merged[i].a)
		}
	}
	return total
}
