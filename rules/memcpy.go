package rules

import (
	"fmt"
	"math"
	"strings"

	"github.com/profan-dev/profan"
)

// PageableMemcpy reports host transfers from or to pageable memory.
var PageableMemcpy = &Rule{
	ID:    "pageable-memcpy",
	Title: "Host transfers use pageable memory",
	Text: `A copy from pageable host memory is staged by the driver through a pinned
buffer, which halves the achievable PCIe bandwidth and makes cudaMemcpyAsync
synchronous. Allocate host buffers that move often with cudaMallocHost or
cudaHostAlloc (or pin them with cudaHostRegister).`,
	Before: `float *h = (float*)malloc(bytes);
cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);`,
	After: `float *h; cudaMallocHost(&h, bytes);        // pinned
cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream);`,
	Severity: profan.Warning,
	CheckRun: func(p *RunPass) {
		var n int
		var bytes, secs float64
		for _, a := range p.Run.Activities {
			if !strings.HasPrefix(a.Kind, "memcpy HtoD") && !strings.HasPrefix(a.Kind, "memcpy DtoH") {
				continue
			}
			if a.SrcMemType != "Pageable" && a.DstMemType != "Pageable" {
				continue
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
		p.Report(profan.Finding{
			Message:  msg,
			Advice:   "allocate these host buffers with cudaMallocHost/cudaHostAlloc (or cudaHostRegister them): pinned copies run at full PCIe speed and can overlap kernels",
			Gain:     math.NaN(),
			Evidence: []string{fmt.Sprintf("pageable_transfers=%d", n)},
		})
	},
}

// SyncMemcpy reports synchronous copies that serialize with kernels.
var SyncMemcpy = &Rule{
	ID:    "sync-memcpy",
	Title: "Synchronous copies serialize with kernels",
	Text: `cudaMemcpy blocks the host and orders the copy after all preceding work, so
transfers and kernels never overlap. With pinned buffers, cudaMemcpyAsync on
several streams lets the copy of one chunk run while the kernel of another does.`,
	Before: `cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice);
kernel<<<g, b>>>(d_in, d_out);
cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost);`,
	After: `for (int s = 0; s < nStreams; ++s) {
    cudaMemcpyAsync(d_in + off[s], h_in + off[s], chunk, cudaMemcpyHostToDevice, stream[s]);
    kernel<<<g, b, 0, stream[s]>>>(d_in + off[s], d_out + off[s]);
    cudaMemcpyAsync(h_out + off[s], d_out + off[s], chunk, cudaMemcpyDeviceToHost, stream[s]);
}`,
	Severity: profan.Info,
	CheckRun: func(p *RunPass) {
		var syncT, syncN, total float64
		for _, c := range p.Run.APICalls {
			total += c.Total
			if c.Name == "cudaMemcpy" || c.Name == "cudaMemcpy2D" || c.Name == "cudaMemcpy3D" || c.Name == "cudaMemcpyToSymbol" || c.Name == "cudaMemcpyFromSymbol" {
				syncT += c.Total
				syncN += float64(c.Calls)
			}
		}
		if syncN == 0 || total == 0 || syncT/total < p.T.MemcpyShare {
			return
		}
		p.Report(profan.Finding{
			Message:  fmt.Sprintf("%.0f synchronous copy calls take %.0f%% of the host API time (%.3f ms)", syncN, 100*syncT/total, syncT*1e3),
			Advice:   "use pinned buffers with cudaMemcpyAsync on several streams so copies overlap kernels, and synchronize once at the end",
			Gain:     math.NaN(),
			Evidence: []string{fmt.Sprintf("sync_memcpy_calls=%.0f", syncN), fmt.Sprintf("sync_memcpy_time_s=%.6g", syncT)},
		})
	},
}
