package ingest

import (
	"strings"

	"github.com/profan-dev/profan"
)

// nsysAPISum reads Nsight Systems' host call summaries, CUDA API calls
// (nsys stats --report cuda_api_sum, cudaapisum before 2023) and OS
// runtime calls (osrt_sum, osrtsum), which share one table:
//
//	Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name
//
// with the units in the header names and minimal quoting; the older
// spellings ("Time(%)", "Average", "Minimum", "Maximum", no median) are
// those of the kernel summary. One APICall per row: Calls = Num Calls,
// Total, Avg, Min and Max in seconds. A call whose name is no CUDA
// runtime or driver call's (cuda*, cu*) is an OS runtime call (OS set):
// the two reports are told apart by their rows, as their headers are the
// same.
type nsysAPISum struct{}

func (nsysAPISum) Name() string { return "nsys-api-sum" }
func (nsysAPISum) Tool() string { return profan.ToolNsys }

func (nsysAPISum) Match(h []string) bool { return nsysSumMatch(h, "Num Calls") }

func (nsysAPISum) Parse(t *table) error {
	const format = "nsys-api-sum"
	h, err := readNsysSum(t, format, "Num Calls")
	if err != nil {
		return err
	}
	var share shares
	err = t.eachRow(format, "a header", func(r row) error {
		var v [5]float64
		if err := h.nums(t, r, v[:], "Time", "Total Time", "Avg", "Min", "Max"); err != nil {
			return err
		}
		n, err := h.count(t, r, "Num Calls", "a call count")
		if err != nil {
			return err
		}
		name := t.Intern([]byte(strings.TrimSpace(h.cell(r, "Name"))))
		if name == "" {
			return t.Errorf(r.Line, "row has no call name")
		}
		share.add(v[0], r.Line)
		if err := share.once(t, name, r.Line); err != nil {
			return err
		}
		return t.s.hostCalls().add(t, &profan.APICall{Name: name, Calls: n, Total: v[1], Avg: v[2], Min: v[3], Max: v[4], OS: !cudaCall(name)}, false, r.Line)
	})
	if err != nil {
		return err
	}
	return share.check(t, "Time (%)", 0.05)
}

// cudaCall reports whether name is a CUDA runtime or driver call
// (cudaMalloc, cuLaunchKernel, cuMemcpyHtoD_v2), not an OS runtime one
// (poll, ioctl, pthread_cond_wait).
func cudaCall(name string) bool {
	if strings.HasPrefix(name, "cuda") {
		return true
	}
	rest, ok := strings.CutPrefix(name, "cu")
	return ok && rest != "" && rest[0] >= 'A' && rest[0] <= 'Z'
}
