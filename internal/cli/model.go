package cli

import (
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/report"
	"github.com/spf13/cobra"
)

// ModelOptions are the flags of profan model.
type ModelOptions struct {
	IO        *IOStreams
	Arch      string
	ElemBytes int
	Threads   int
	Pattern   string
	Format    string
	NoL1      bool
}

// NewCmdModel builds profan model.
func NewCmdModel(io *IOStreams, runF func(*ModelOptions) error) *cobra.Command {
	opts := &ModelOptions{IO: io}
	cmd := &cobra.Command{
		Use:   "model --arch <arch> --elem-bytes <n> --threads <n> --pattern <pattern>",
		Short: "Predict requests, L1 transactions and L2 sectors of an access pattern",
		Long: `Predict what a warp-level access pattern costs on a GPU architecture with the
analytic memory model: requests (warp instructions), L1 transactions (128-byte
lines) and L2 sectors (32 bytes), next to the ideal counts.

--arch takes a compute capability (7.0), an architecture (volta, hopper) or a GPU
name (V100, "NVIDIA H100 80GB HBM3"). --pattern is one of sequential, offset:K,
stride:K (elements), uniform or random (a random permutation, expected value).`,
		Example: `  profan model --arch volta --elem-bytes 4 --threads 10000 --pattern sequential
  profan model --arch 9.0 --elem-bytes 8 --threads 10000 --pattern random --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return modelRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Arch, "arch", "", "compute capability, architecture or GPU name (required)")
	cmd.Flags().IntVar(&opts.ElemBytes, "elem-bytes", 4, "bytes each thread accesses: 1, 2, 4, 8 or 16")
	cmd.Flags().IntVar(&opts.Threads, "threads", 0, "threads that access memory (required)")
	cmd.Flags().StringVar(&opts.Pattern, "pattern", "sequential", "{sequential|offset:K|stride:K|uniform|random}")
	cmd.Flags().StringVarP(&opts.Format, "format", "f", "text", "output format: {text|json}")
	cmd.Flags().BoolVar(&opts.NoL1, "no-l1", false, "global loads bypass L1 (Fermi -dlcm=cg)")
	return cmd
}

// Bounds of the model's inputs: the model's cost grows with the threads
// (about 3 s at the bound), and byte addresses must not overflow.
const (
	maxModelThreads = 1 << 30
	maxPatternElems = 1 << 32
)

func modelRun(opts *ModelOptions) error {
	if opts.Arch == "" {
		return FlagErrorf("--arch is required")
	}
	if opts.Threads <= 0 || opts.Threads > maxModelThreads {
		return FlagErrorf("--threads must be between 1 and %d, not %d", maxModelThreads, opts.Threads)
	}
	f, ok := report.Lookup(opts.Format)
	if !ok || f.Model == nil {
		return formatError(opts.Format, report.ModelFormats()...)
	}
	cc, err := gpumodel.ResolveArch(opts.Arch)
	if err != nil {
		return FlagErrorf("--arch: %v", err)
	}
	p, err := gpumodel.ParsePattern(opts.Pattern)
	if err != nil {
		return FlagErrorf("--pattern: %v", err)
	}
	if p.Stride > maxPatternElems || p.Offset > maxPatternElems {
		return FlagErrorf("--pattern %s: a stride or offset above %d elements is beyond any GPU's memory", opts.Pattern, maxPatternElems)
	}
	l1 := gpumodel.L1Default
	if opts.NoL1 {
		l1 = gpumodel.L1Off
	}
	pred, err := gpumodel.PredictWith(cc, opts.ElemBytes, opts.Threads, p, gpumodel.Options{L1: l1})
	if err != nil {
		return FlagErrorf("%v", err)
	}
	return f.Model(opts.IO.Out, &report.Model{Arch: opts.Arch, CC: cc, ElemBytes: opts.ElemBytes, Threads: opts.Threads, Pattern: opts.Pattern, Pred: pred}, report.Options{})
}
