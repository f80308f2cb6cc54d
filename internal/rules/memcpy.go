package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
)

var memcpyShare = share("memcpy_share")

// pageableMemcpy reports host transfers from or to pageable memory.
var pageableMemcpy = &Rule{
	ID:    "pageable-memcpy",
	Title: "Host transfers use pageable memory",
	Text: `A copy from pageable host memory is staged by the driver through a pinned
buffer, which halves the achievable PCIe bandwidth and makes cudaMemcpyAsync
synchronous. Allocate host buffers that move often with cudaMallocHost or
cudaHostAlloc (or pin them with cudaHostRegister). A copy from the GPU into a
pinned buffer no longer blocks the host: record an event after it and wait on
it (or read the buffer a step later) before the host reads the buffer.`,
	Before: `float *h = (float*)malloc(bytes);
cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);`,
	After: `float *h; cudaMallocHost(&h, bytes);        // pinned
cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream);`,
	Severity: profan.Warning,
	Cause:    CauseHost,
	Scope:    Caller,
	CheckRun: func(p *RunPass) {
		var n int
		var bytes, secs float64
		toDevice, fromDevice := false, false
		for _, a := range p.Run.Activities {
			if !strings.HasPrefix(a.Kind, "memcpy HtoD") && !strings.HasPrefix(a.Kind, "memcpy DtoH") {
				continue
			}
			if a.SrcMemType != "Pageable" && a.DstMemType != "Pageable" {
				continue
			}
			if strings.HasPrefix(a.Kind, "memcpy DtoH") {
				fromDevice = fromDevice || a.Bytes >= bulkRead
			} else {
				toDevice = true
			}
			n += a.Invocations
			if !math.IsNaN(a.Bytes) {
				bytes += a.Bytes * float64(a.Invocations)
			}
			if !math.IsNaN(a.Duration) {
				secs += a.Duration * float64(a.Invocations)
			}
		}
		if n == 0 {
			return
		}
		msg := fmt.Sprintf("%d host transfers use pageable memory", n)
		if secs > 0 && bytes > 0 {
			msg += fmt.Sprintf(" (%.1f MB in %.3f ms, %.2f GB/s)", bytes/1e6, secs*1e3, bytes/secs/1e9)
		}
		p.report(unknownGain, Note{
			Message:  msg,
			Advice:   pinnedFixText(p.Run.Tool == profan.ToolTorch, toDevice, fromDevice || !toDevice) + ": pinned copies run at full PCIe speed and can overlap kernels",
			Evidence: []string{fmt.Sprintf("pageable_transfers=%d", n)},
		})
	},
}

// syncMemcpy reports synchronous copies that serialize with kernels, told
// apart by what they are: one call that dominates the host time (the first
// CUDA call of a process pays for creating the context), device-to-device
// copies (no host memory involved: pinned buffers cannot help), and
// host-to-device or device-to-host transfers (pinned buffers, async copies,
// overlap).
var syncMemcpy = &Rule{
	ID:    "sync-memcpy",
	Title: "Synchronous copies serialize with kernels",
	Text: `cudaMemcpy blocks the host and orders the copy after all preceding work, so
transfers and kernels never overlap. With pinned buffers, cudaMemcpyAsync on
several streams lets the copy of one chunk run while the kernel of another does.
Device-to-device copies involve no host memory: their host time is the wait for
the kernels queued before them, and the fix is an asynchronous copy on the
kernels' stream or no copy at all. One call that takes most of the host time
(often the first cudaMemcpyToSymbol or cudaMalloc of the process) is the
context's start-up, not a copy: it is reported as such.`,
	Before: `cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
kernel<<<g, b>>>(d_in, d_out);
cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);`,
	After: `for (int s = 0; s < nStreams; ++s) {
    cudaMemcpyAsync(d_in + off[s], h_in + off[s], chunk, cudaMemcpyHostToDevice, stream[s]);
    kernel<<<g, b, 0, stream[s]>>>(d_in + off[s], d_out + off[s]);
    cudaMemcpyAsync(h_out + off[s], d_out + off[s], chunk, cudaMemcpyDeviceToHost, stream[s]);
}`,
	Severity:   profan.Info,
	Cause:      CauseHost,
	Scope:      Caller,
	Thresholds: []*Threshold{memcpyShare},
	CheckRun:   checkSyncMemcpy,
}

func syncCopyCall(name string) bool {
	switch name {
	case "cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyToSymbol", "cudaMemcpyFromSymbol",
		"cudaMemcpyToArray", "cudaMemcpyFromArray", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemcpyDtoD",
		"cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemcpyDtoD_v2":
		return true
	}
	return false
}

func checkSyncMemcpy(p *RunPass) {
	var total, syncT, syncN float64
	var big *profan.APICall // the sync copy call with the longest single call
	for i, c := range p.Run.APICalls {
		if c.OS {
			continue // an OS runtime call (nsys osrt_sum): no CUDA API time
		}
		total += c.Total
		if !syncCopyCall(c.Name) {
			continue
		}
		syncT += c.Total
		syncN += float64(c.Calls)
		if big == nil || c.Max > big.Max {
			big = p.Run.APICalls[i]
		}
	}
	if syncN == 0 || total <= 0 {
		return
	}
	// One call that dominates the host time is the process's start-up
	// (context creation, module loading) landing on its first CUDA call.
	if big != nil && !math.IsNaN(big.Max) && big.Max >= 0.5*total {
		p.report(unknownGain, Note{
			Message: fmt.Sprintf("one %s call takes %.1f ms, %.0f%% of the host API time (%d calls in all): a single call that long is the CUDA context's start-up (driver initialisation, module loading) landing on the first CUDA call of the process, not the cost of a copy",
				big.Name, big.Max*1e3, 100*big.Max/total, big.Calls),
			Advice:   "create the context before the timed work (cudaSetDevice(0); cudaFree(0); at start-up) so it is not counted as a copy; persistence mode (nvidia-smi -pm 1) and lazy module loading (CUDA_MODULE_LOADING=LAZY) shorten it",
			Evidence: []string{fmt.Sprintf("%s_max_s=%.6g", big.Name, big.Max), fmt.Sprintf("api_total_s=%.6g", total)},
		})
		syncT -= big.Max
		syncN--
	}
	if syncN <= 0 || syncT/total < p.Thresholds.MemcpyShare {
		return
	}
	// What the GPU copied, by direction.
	var h2d, d2h, d2d, d2dT float64
	for _, a := range p.Run.Activities {
		n := float64(a.Invocations)
		switch {
		case strings.HasPrefix(a.Kind, "memcpy HtoD"):
			h2d += n
		case strings.HasPrefix(a.Kind, "memcpy DtoH"):
			d2h += n
		case strings.HasPrefix(a.Kind, "memcpy DtoD"), strings.HasPrefix(a.Kind, "memcpy PtoP"):
			d2d += n
			if !math.IsNaN(a.Duration) {
				d2dT += a.Duration * n
			}
		}
	}
	msg := fmt.Sprintf("%.0f synchronous copy calls take %.0f%% of the host API time (%.3f ms)", syncN, 100*syncT/total, syncT*1e3)
	ev := []string{fmt.Sprintf("sync_memcpy_calls=%.0f", syncN), fmt.Sprintf("sync_memcpy_time_s=%.6g", syncT)}
	if d2d > 0 && d2d >= h2d+d2h {
		msg += fmt.Sprintf("; the GPU ran %.0f device-to-device copies", d2d)
		if d2dT > 0 {
			msg += fmt.Sprintf(" taking %.3f ms on the GPU", d2dT*1e3)
		}
		if h2d+d2h > 0 {
			msg += fmt.Sprintf(" and %.0f host transfers", h2d+d2h)
		}
		msg += ": device-to-device copies touch no host memory, so pinned buffers cannot help; the host time is spent waiting for the kernels queued before each copy"
		p.report(unknownGain, Note{
			Message:  msg,
			Advice:   "issue the device-to-device copies with cudaMemcpyAsync on the kernels' stream so the host does not wait for them, or drop them (swap the buffer pointers between iterations, or let the kernel write where the data is needed)",
			Evidence: append(ev, fmt.Sprintf("dtod_copies=%.0f", d2d)),
		})
		return
	}
	if h2d+d2h > 0 {
		msg += fmt.Sprintf("; the GPU ran %.0f host-to-device and %.0f device-to-host transfers", h2d, d2h)
	}
	p.report(unknownGain, Note{
		Message:  msg,
		Advice:   "use pinned buffers with cudaMemcpyAsync on several streams so copies overlap kernels, and synchronize once at the end",
		Evidence: ev,
	})
}
