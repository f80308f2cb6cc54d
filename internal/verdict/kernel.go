package verdict

import (
	"math"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/kernelname"
	"github.com/profan-dev/profan/internal/metrics"
	"github.com/profan-dev/profan/internal/sass"
)

// Kernel is the analysis of one kernel record: the verdict on it.
type Kernel struct {
	Run    *profan.Run
	Record *profan.Kernel // as the export gives it: one launch, or an aggregate of launches
	Spec   *gpumodel.Spec // nil when the GPU is unknown
	// Name is what the kernel's name tells: library, kind, display name.
	Name kernelname.Info
	// GPU is how Spec was identified: from --device, the printed name,
	// the device attributes or the compute capability (assumed).
	GPU      gpumodel.Identity
	Metrics  *metrics.Set
	Model    Model
	Limiter  Limiter
	Findings []profan.Finding
	// Suppressed are the findings a configured suppression silenced.
	Suppressed []Suppressed
	Skipped    []string // rules skipped, with the reason
	// Missing are the skipped rules the profiler could have fed, with
	// the command that adds their counters.
	Missing []Missing
	// SASS is the lists made of Record's source page, each once, while
	// the analysis judges the kernel (its readers and the rules reach
	// them through analysis.SASSOf); nil after, for the lists are the
	// page's size and a run's verdicts outlive their judging.
	SASS *sass.Code
}

// Model is the reading of the kernel's accesses, one per memory space,
// each from the best evidence the export gives: the source page's
// per-instruction counters, then the raw counters, then the model.
type Model struct {
	GlobalLoad  *Access
	GlobalStore *Access
	SharedLoad  *Access
	SharedStore *Access
	// Instructions holds the per-instruction reading when the export has
	// ncu's source page: each global or shared access with its measured
	// and ideal sectors, worst first.
	Instructions []Instruction
}

// Shared returns the shared-memory space with the worse conflict, loads or
// stores: the two are never averaged.
func (m Model) Shared() *Access {
	switch {
	case m.SharedLoad == nil:
		return m.SharedStore
	case m.SharedStore == nil:
		return m.SharedLoad
	case m.SharedStore.Pattern.Ways > m.SharedLoad.Pattern.Ways:
		return m.SharedStore
	}
	return m.SharedLoad
}

// Instruction is the reading of one SASS memory instruction.
type Instruction struct {
	File                   string
	Line                   int
	Address                string
	SASS                   string
	Space                  string // global or shared
	Operation              string // load or store
	Requests               float64
	Sectors                float64
	IdealSectors           float64
	SectorsPerRequest      float64
	IdealSectorsPerRequest float64
	Pattern                gpumodel.AccessPattern
	// Indirect is set for a global access whose address the kernel
	// loaded from memory (a gather or scatter through an index array):
	// its pattern is the data's, which no indexing of the kernel changes.
	Indirect bool
	// AtomicRead is set for a load of the word a global atomic of the
	// kernel then updates (a compare-and-swap loop's read).
	AtomicRead bool
	// AtomicSlot is set for a global access whose address an atomic's
	// result computes (y[atomicAdd(&n, 1)]: a slot claimed from a
	// counter): where it falls is the counter's value.
	AtomicSlot bool
	// Executions is the instruction's executions per warp launched: above
	// one it sits in a loop.
	Executions float64
	// Step is the distance in bytes between a thread's consecutive
	// iterations of this access when its loop was unrolled (the immediate
	// offsets of the loads of one line through one register): the access
	// size for a thread walking consecutive elements; 0 when unknown.
	Step float64
}

// Access is the reading of one memory space.
type Access struct {
	Requests               float64
	Transactions           float64
	IdealTransactions      float64
	SectorsPerRequest      float64
	IdealSectorsPerRequest float64
	Pattern                gpumodel.AccessPattern
	Implausible            []string
}

// Value returns a canonical metric of the kernel.
func (a *Kernel) Value(name string) (float64, bool) { return a.Metrics.Get(name) }

// Missing is a rule that could not run on a kernel for want of counters
// the profiler can give: what it needs and the command that adds it.
type Missing struct {
	Rule    string
	Needs   string
	Command string
}

// MissingCount is a Missing with the number of kernel records it held for,
// and the launches those stand for (an aggregate record, many).
type MissingCount struct {
	Missing
	Kernels  int
	Launches int
}

// Suppressed is a finding a configured suppression silenced, with its
// reason; counted and shown, never lost.
type Suppressed struct {
	Finding profan.Finding
	Reason  string
}

// Launch returns the verdict on a later launch l of a stored launch
// series whose first launch's verdict is a: the same but for the launch's
// identity and its canonical duration (NaN: none; findings that name the
// first launch name l).
func (a *Kernel) Launch(l *profan.Kernel, duration float64) *Kernel {
	c := *a
	c.Record = l
	if d, ok := a.Metrics.Get("duration"); ok != !math.IsNaN(duration) || ok && d != duration {
		c.Metrics = a.Metrics.With("duration", duration)
	}
	c.Findings = relabel(a.Findings, a.Record.ID, l.ID)
	if len(a.Suppressed) > 0 {
		c.Suppressed = make([]Suppressed, len(a.Suppressed))
		for i, s := range a.Suppressed {
			if s.Finding.Kernel == a.Record.ID {
				s.Finding.Kernel = l.ID
			}
			c.Suppressed[i] = s
		}
	}
	return &c
}

func relabel(fs []profan.Finding, from, to string) []profan.Finding {
	out := fs
	for i, f := range fs {
		if f.Kernel == from {
			if &out[0] == &fs[0] {
				out = append([]profan.Finding(nil), fs...)
			}
			out[i].Kernel = to
		}
	}
	return out
}
