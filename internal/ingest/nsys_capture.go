package ingest

import (
	"bytes"
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
)

// nsys stats --output writes one file per report: the API trace and the
// GPU trace of one report, given together, are one capture, as they are
// when one file holds both. The API trace is read first, whatever the
// order of the files, so that each kernel gets its launch call by CorrID.

const (
	apiTraceFormat = "nsys-api-trace"
	gpuTraceFormat = "nsys-gputrace"
)

// launchSlack is how long before its launch call returns a kernel may
// start: the GPU may run a kernel before the call that queued it returns
// (on cuFCM's traces by up to 6 µs); one queued in another capture starts
// at any time.
const launchSlack = 1e-3

// pairTraces makes each API trace and a GPU trace given as single
// exports one capture, in the place of the first of the two: the first
// API trace with the first GPU trace, and so on. A format forced on every
// file pairs nothing.
func pairTraces(cs []Capture, opt Options) []Capture {
	if opt.Format != "" {
		return cs
	}
	var api, gpu []int
	for i, c := range cs {
		if len(c.Pages) != 1 {
			continue
		}
		switch c.Pages[0].Format() {
		case apiTraceFormat:
			api = append(api, i)
		case gpuTraceFormat:
			gpu = append(gpu, i)
		}
	}
	drop := map[int]bool{}
	for j := range min(len(api), len(gpu)) {
		a, g := api[j], gpu[j]
		pages := []*File{cs[a].Pages[0], cs[g].Pages[0]}
		cs[min(a, g)] = Capture{Pages: pages}
		drop[max(a, g)] = true
	}
	out := cs[:0]
	for i, c := range cs {
		if !drop[i] {
			out = append(out, c)
		}
	}
	return out
}

// traces reports whether c is an API trace and a GPU trace.
func (c Capture) traces() bool {
	return len(c.Pages) == 2 && c.Pages[0].Format() == apiTraceFormat && c.Pages[1].Format() == gpuTraceFormat
}

// readTraces reads an API trace and a GPU trace of one report as one
// run: the API trace first, then the GPU trace, whose kernels get the
// launch calls' times. A GPU trace with kernels that the API trace's
// calls should have launched and did not, or that start well before their
// launch call returned, is of another capture, and refused at the line of
// the first such kernel.
func readTraces(c Capture, opt Options, fn func(*profan.Run, *profan.Kernel) error) (*profan.Run, error) {
	api, gpu := c.Pages[0], c.Pages[1]
	calls := newNsysHost()
	setState(&api.states, calls)
	setState(&gpu.states, calls)
	defer func() { setState(&api.states, (*nsysHost)(nil)); setState(&gpu.states, (*nsysHost)(nil)) }()
	popt := Options{MaxTextMessages: opt.MaxTextMessages}
	apiRun, err := api.Read(popt, Sink{Kernel: func(_ *profan.Run, k *profan.Kernel) error {
		return &syntaxError{File: api.Name(), Line: k.Line, Msg: fmt.Sprintf(
			"this API trace holds a GPU trace of its own, so it is not the API trace of %s: give each report's traces together", safe.Term(gpu.Name()))}
	}})
	if err != nil {
		return nil, err
	}
	capture := &profan.Run{Source: safe.Term(c.Name()), Tool: profan.ToolNsys}
	n := 0
	// The GPU trace's reader joins each kernel to its launch call, and
	// refuses one of another capture (nsysHost.gpuKernel).
	gpuRun, err := gpu.Read(popt, Sink{Kernel: func(_ *profan.Run, k *profan.Kernel) error {
		n++
		return fn(capture, k)
	}})
	if err != nil {
		return nil, err
	}
	captureRun(capture, []*pageStream{{f: api, run: apiRun}, {f: gpu, run: gpuRun}}, n)
	capture.Format = apiRun.Format + "+" + gpuRun.Format
	capture.Host = apiRun.Host
	return capture, nil
}

// launchesAhead reads, through readers of its own, the launch calls of
// an API trace that follows the GPU trace in the export in (--report
// cuda_gpu_trace,cuda_api_trace), so that the kernels are joined to them
// whatever the order of the reports. nil when in holds no API trace, or
// cannot be read twice (a pipe: the kernels then stay unjoined, said in a
// note). What is wrong with the export is said by the read proper.
func (in *File) launchesAhead() *nsysHost {
	p, done := in.again()
	if p == nil {
		return nil
	}
	found := false
	var fields [][]byte
	for !found {
		line, err := p.lr.next()
		if err != nil {
			break
		}
		if !bytes.HasPrefix(line, []byte("Start")) && !bytes.HasPrefix(line, []byte(`"Start`)) {
			continue
		}
		if fields, err = splitCSV(line, fields[:0]); err == nil {
			found = nsysAPITrace{}.Match(toStrings(fields))
		}
	}
	done()
	if !found {
		return nil
	}
	if p, done = in.again(); p == nil {
		return nil
	}
	defer done()
	calls := newNsysHost()
	setState(&p.states, calls)
	drop := Sink{Kernel: func(*profan.Run, *profan.Kernel) error { return nil }, Activity: func(*profan.Run, *profan.Activity) error { return nil }}
	if _, err := p.Read(Options{}, drop); err != nil {
		return nil
	}
	// The read proper sums the calls again: only the launches are handed on.
	ahead := newNsysHost()
	ahead.launched, ahead.end, ahead.api = calls.launched, calls.end, calls.api
	return ahead
}
