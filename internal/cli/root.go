// Package cli is profan's command tree. Each command is one file with an
// options struct and a run function; exit codes are decided in Main only.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/store"

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
		Short: "Explain the performance of CUDA kernels from ncu, nvprof, nsys and PyTorch exports",
		Long: `profan reads the exports of Nsight Compute (ncu), nvprof and Nsight Systems (CSV) and
PyTorch profiler traces (JSON), normalizes them, computes the memory-efficiency metrics
of each kernel, cross-checks them with an analytic memory model of the GPU, and says what
to fix.`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
	}
	// --version only: -v is --verbose in every command.
	root.Flags().Bool("version", false, "print the version")
	root.SetVersionTemplate("profan {{.Version}}\n")
	root.PersistentFlags().BoolP("verbose", "v", false, "say more: every canonical metric and the rules skipped (analyze), what was read and skipped (ingest), every passing check (gate)")
	root.PersistentFlags().BoolP("quiet", "q", false, "say only the result and errors: no notes, warnings or progress on standard error")
	root.SetOut(io.Out)
	root.SetErr(io.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &FlagError{err: flagValueError(suggestFlag(c, err))} })
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if n := countStdin(args); n > 1 {
			return FlagErrorf("- (standard input) is given %d times: it can be read once", n)
		}
		return refuseBlankFlags(cmd)
	}
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
	addOutputFlags(root)
	onceFlags(root)
	return root
}

// onceFlags makes every flag of one value (not a list, not a switch)
// refuse to be given twice: --db a.db --db b.db would otherwise read b.db
// only, without a word.
func onceFlags(c *cobra.Command) {
	wrap := func(f *pflag.Flag) {
		if _, ok := f.Value.(*onceValue); ok || f.Value.Type() == "bool" || f.Value.Type() == "count" {
			return
		}
		if _, ok := f.Value.(pflag.SliceValue); ok {
			return
		}
		f.Value = &onceValue{Value: f.Value}
	}
	c.Flags().VisitAll(wrap)
	c.PersistentFlags().VisitAll(wrap)
	for _, sub := range c.Commands() {
		onceFlags(sub)
	}
}

// onceValue is a flag value that may be set once.
type onceValue struct {
	pflag.Value
	set   bool
	first string
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return &twiceError{first: v.first}
	}
	v.set, v.first = true, s
	return v.Value.Set(s)
}

// twiceError is a flag of one value given a second time.
type twiceError struct{ first string }

func (e *twiceError) Error() string { return "given twice" }

// flagValueError rewrites pflag's errors for values its parsers refuse
// (invalid argument "latest" for "--run" flag: strconv.ParseInt: parsing
// "latest": invalid syntax) as what the flag wants.
func flagValueError(err error) error {
	var iv *pflag.InvalidValueError
	if !errors.As(err, &iv) {
		return err
	}
	f := iv.GetFlag()
	name := "--" + f.Name
	val := safe.Quote(iv.GetValue())
	var twice *twiceError
	if errors.As(err, &twice) {
		return fmt.Errorf("%s given twice (%s, then %s): give it once", name, safe.Quote(twice.first), val)
	}
	var ne *strconv.NumError
	if !errors.As(err, &ne) {
		return fmt.Errorf("%s %s: %v", name, val, errors.Unwrap(err))
	}
	want, most := "a number", ""
	switch f.Value.Type() {
	case "int", "int64":
		want, most = "a whole number", strconv.FormatInt(math.MaxInt64, 10)
	case "int32":
		want, most = "a whole number", strconv.FormatInt(math.MaxInt32, 10)
	case "uint", "uint64":
		want, most = "a whole number", strconv.FormatUint(math.MaxUint64, 10)
	case "bool":
		want = "true or false"
	}
	if f.Name == "run" {
		want = "a run ID, a whole number as profan runs lists them"
	}
	if errors.Is(ne.Err, strconv.ErrRange) && most == "" {
		return fmt.Errorf("%s %s: out of range: want a finite number", name, val)
	}
	if errors.Is(ne.Err, strconv.ErrRange) {
		return fmt.Errorf("%s %s: out of range: want %s up to %s", name, val, want, most)
	}
	return fmt.Errorf("%s %s: want %s", name, val, want)
}

// Main runs the command line args and returns the exit status.
func Main(args []string, io *IOStreams) ExitCode {
	stderr := io.ErrOut
	var pending atomic.Pointer[outputFile] // -o's temporary file, for stuck
	kept := &keptList{}
	ctx, stop := interruptContext(context.Background(), func(intr *InterruptedError) {
		code, _ := endStuck(intr, pending.Load(), kept, stderr)
		os.Exit(int(code)) // commits held: none starts before the exit
	})
	defer stop()
	// The command's output stops once ctx is cancelled: a render stops at
	// its next write. Its errors, the interruption's included, are said.
	out, errOut := newOutWriter(ctxWriter{ctx: ctx, w: io.Out}), newOutWriter(io.ErrOut)
	sio := *io
	sio.Out, sio.ErrOut, sio.kept = out, errOut, kept
	io = &sio
	defer errOut.flush()
	root := NewRoot(io)
	root.SetArgs(args)
	// -o: the result goes to a temporary file, renamed over the file
	// named once the command is done (a gate's failed report included).
	var outFile *outputFile
	var fileOut *outWriter
	prev := root.PersistentPreRunE
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error {
		if prev != nil {
			if err := prev(cmd, args); err != nil {
				return err
			}
		}
		if q, _ := cmd.Flags().GetBool("quiet"); q {
			// Notes, warnings and progress go; the result (standard
			// output) and the errors Main says below stay.
			sio.ErrOut = quietErr
		}
		of, err := openOutput(cmd)
		if err != nil || of == nil {
			return err
		}
		outFile, fileOut = of, newOutWriter(ctxWriter{ctx: ctx, w: of.w})
		pending.Store(of)
		sio.Out, sio.Color, sio.TTY = fileOut, false, false
		return nil
	}
	cmd, err := root.ExecuteContextC(ctx)
	pending.Store(nil)
	if outFile != nil {
		werr := fileOut.flush()
		var gf *GateFailedError
		ok := werr == nil && (err == nil || errors.As(err, &gf)) && context.Cause(ctx) == nil
		if ferr := outFile.finish(ok); ferr != nil || werr != nil {
			err = errors.Join(err, &WriteError{err: errors.Join(werr, ferr)})
		}
	}
	if werr := out.flush(); werr != nil {
		// Output that did not reach its reader (a full disk, a closed
		// descriptor) is a failure, whatever the command found: a gate
		// whose report is lost must not pass. When the command's error is
		// that write's, it is said once.
		if errors.Is(err, werr) {
			err = &WriteError{err: werr}
		} else {
			err = errors.Join(err, &WriteError{err: werr})
		}
	}
	var intr *InterruptedError
	if errors.As(context.Cause(ctx), &intr) {
		// What the command said once its context was cancelled is the
		// cancellation's consequence: the signal is the error.
		intr.Done = err == nil
		intr.Kept = kept.now()
		err = intr
	}
	if err != nil {
		var flagErr *FlagError
		var gate *GateFailedError
		switch {
		case errors.As(err, &gate) && !errors.As(err, new(*WriteError)):
			// The gate report says why.
		case errors.As(err, &flagErr):
			// The error and where the usage is, not the usage itself: it
			// would bury the one line that matters.
			fmt.Fprintf(errOut, "profan: %s\n", termLines(err.Error()))
			if cmd != nil {
				fmt.Fprintf(errOut, "Run '%s --help' for usage.\n", cmd.CommandPath())
			}
		default:
			// Errors quote paths, flags and patterns the user gave: shown
			// like strings from exports, they cannot drive the terminal.
			fmt.Fprintf(errOut, "profan: %s\n", termLines(err.Error()))
		}
	}
	return exitCodeOf(err)
}

// endStuck ends a command that did not return in time once interrupted:
// blocked in a read no context reaches (a pipe whose writer sends
// nothing), or in the database's close. It has written nothing but -o's
// temporary file (of) and a new database not yet put in place, which go,
// and the runs it committed (kept), which stay and are said: a commit
// under way is waited for, up to holdCommits (it is short), and none
// starts after it, until release. It returns the exit status.
func endStuck(intr *InterruptedError, of *outputFile, kept *keptList, stderr io.Writer) (code ExitCode, release func()) {
	if of != nil {
		of.finish(false)
	}
	store.RemoveUnpublished()
	release, ok := store.HoldCommits(holdCommits)
	intr.Kept = kept.now()
	if !ok {
		intr.Kept = append(intr.Kept, "perhaps the run whose commit was under way")
	}
	fmt.Fprintf(stderr, "profan: %s\n", intr.Error())
	return exitCodeOf(intr), release
}

// interruptContext returns a context that SIGINT (Ctrl-C) and SIGTERM (a
// CI job cancelled) cancel, its cause an *InterruptedError: every read,
// query and render of the command takes it, an ingest rolls back the run
// it was writing, and a report's file is not written. A second signal
// ends the process at once (the default action is restored). A command
// that has not returned interruptGrace after the signal (a read blocked
// on a pipe that sends nothing, which no context interrupts) is ended by
// stuck.
func interruptContext(parent context.Context, stuck func(*InterruptedError)) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			intr := &InterruptedError{Signal: s.(syscall.Signal)}
			cancel(intr)
			select {
			case <-time.After(interruptGrace):
				stuck(intr)
			case <-done:
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// holdCommits is how long a command stopped by the grace waits for a
// commit under way: with the grace, within the second a signal allows.
const holdCommits = 300 * time.Millisecond

// interruptGrace is how long a command has to return once interrupted.
const interruptGrace = 500 * time.Millisecond

// countStdin counts the arguments that name standard input ("-").
func countStdin(args []string) int {
	n := 0
	for _, a := range args {
		if a == "-" {
			n++
		}
	}
	return n
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
