// Package cli is profan's command tree. Each command is one file with an
// options struct and a run function; exit codes are decided in Main only.
package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/profan-dev/profan/internal/safe"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Version is the version profan reports: set at build time with -ldflags
// "-X github.com/profan-dev/profan/internal/cli.Version=v1.2.3", else the
// module version from the build info (go install ...@v1.2.3), else the
// commit it was built from.
var Version = ""

// version returns Version, or what the build info says.
func version() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	v = "(devel)"
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))]
		if modified == "true" {
			v += " (modified)"
		}
	}
	return v
}

// NewCmdVersion builds profan version.
func NewCmdVersion(io *IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print profan's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(io.Out, "profan %s\n", version())
			return nil
		},
	}
}

// NewRoot builds the command tree.
func NewRoot(io *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "profan <command> [flags]",
		Short: "Explain the memory efficiency of CUDA kernels from ncu and nvprof CSV exports",
		Long: `profan reads the CSV exports of Nsight Compute (ncu), nvprof and Nsight Systems,
normalizes them, computes the memory-efficiency metrics of each kernel, cross-checks
them with an analytic memory model of the GPU, and says what to fix.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	// --version only: -v is --verbose in every command.
	root.Flags().Bool("version", false, "print the version")
	root.SetVersionTemplate("profan {{.Version}}\n")
	root.PersistentFlags().BoolP("verbose", "v", false, "say more: every canonical metric and the rules skipped (analyze), what was read and skipped (ingest), every passing check (gate)")
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &FlagError{err: suggestFlag(c, err)} })
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error { return refuseBlankFlags(cmd) }
	root.AddCommand(
		NewCmdAnalyze(io, nil),
		NewCmdModel(io, nil),
		NewCmdExplain(io),
		NewCmdIngest(io, nil),
		NewCmdRuns(io),
		NewCmdTrend(io),
		NewCmdDiff(io),
		NewCmdGate(io),
		NewCmdReport(io),
		NewCmdMigrate(io),
		NewCmdVersion(io),
	)
	return root
}

// Main runs the command line args and returns the exit status.
func Main(args []string, io *IOStreams) ExitCode {
	root := NewRoot(io)
	root.SetArgs(args)
	// Ctrl-C (or TERM) cancels the command's context: an ingest stops at
	// its next kernel and rolls back the run it was writing. A second one
	// ends the process at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, stop)
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil {
		var flagErr *FlagError
		var gate *GateFailedError
		switch {
		case errors.As(err, &gate):
			// The gate report says why.
		case errors.As(err, &flagErr):
			// The error and where the usage is, not the usage itself: it
			// would bury the one line that matters.
			fmt.Fprintf(io.ErrOut, "profan: %s\n", termLines(err.Error()))
			if cmd != nil {
				fmt.Fprintf(io.ErrOut, "Run '%s --help' for usage.\n", cmd.CommandPath())
			}
		default:
			// Errors quote paths, flags and patterns the user gave: shown
			// like strings from exports, they cannot drive the terminal.
			fmt.Fprintf(io.ErrOut, "profan: %s\n", termLines(err.Error()))
		}
	}
	return exitCodeOf(err)
}

// blankRefused are the flags whose value, once given, must say something:
// an empty --db would silently mean ./profan.db, an empty --fail-on or
// --max-regression a gate that checks nothing.
var blankRefused = []string{"db", "fail-on", "max-regression", "min-share", "require", "config", "baseline", "metric", "kernel", "label", "html", "checks", "device", "input-format", "format", "x-label", "threshold", "path-map"}

// refuseBlankFlags refuses a flag of blankRefused given as an empty or
// blank value (--db ”, --fail-on ',,,').
func refuseBlankFlags(cmd *cobra.Command) error {
	for _, name := range blankRefused {
		f := cmd.Flags().Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		vals := []string{f.Value.String()}
		if sv, ok := f.Value.(interface{ GetSlice() []string }); ok {
			vals = sv.GetSlice()
			if len(vals) == 0 {
				vals = []string{""} // --metric '' reads as no value at all
			}
		}
		for _, v := range vals {
			if strings.Trim(v, " \t,[]") == "" {
				return FlagErrorf("--%s is given an empty value %s", name, safe.Quote(v))
			}
		}
	}
	return nil
}

// suggestFlag adds "did you mean" to an unknown long flag (--formt) when a
// flag of the command is close to it.
func suggestFlag(c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return err
	}
	var known []string
	visit := func(f *pflag.Flag) { known = append(known, f.Name) }
	c.Flags().VisitAll(visit)
	c.InheritedFlags().VisitAll(visit)
	if s := closest(name, known); s != "" {
		return fmt.Errorf("%w; did you mean --%s?", err, s)
	}
	return err
}

// termLines is safe.Term of each line of s: an error of several lines
// (cobra's suggestions, a driver's list of addresses tried) keeps them.
func termLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = safe.Term(l)
	}
	return strings.Join(lines, "\n")
}
