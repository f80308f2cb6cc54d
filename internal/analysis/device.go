package analysis

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
)

// deviceMismatchError is a named GPU (Options.Device) that the export
// contradicts: every peak and balance of the analysis would be another
// GPU's.
type deviceMismatchError struct {
	Source, Kernel string
	Device         string   // the named GPU
	Conflicts      []string // "compute capability: the export 9.0, A100-SXM4-80GB 8.0"
}

func (e *deviceMismatchError) Error() string {
	return fmt.Sprintf("%s: kernel %s: --device %q contradicts the export (%s); leave --device out, name the GPU the export shows, or add --device-force to analyse it as %s anyway",
		e.Source, e.Kernel, e.Device, strings.Join(e.Conflicts, "; "), e.Device)
}

// CheckDevice refuses a named GPU that contradicts what the export says of
// its own (another compute capability, SM count or memory size), unless
// opt.DeviceForce. Every command that reads exports with a named GPU calls
// it on each kernel before analysing or storing it.
func CheckDevice(opt Options, run *profan.Run, k *profan.Kernel) error {
	if opt.Device == nil || opt.DeviceForce {
		return nil
	}
	c := gpumodel.Contradictions(opt.Device, Clues(k))
	if len(c) == 0 {
		return nil
	}
	src := ""
	if run != nil {
		src = run.Source
	}
	return &deviceMismatchError{Source: src, Kernel: k.DisplayName(), Device: opt.Device.Name, Conflicts: c}
}
