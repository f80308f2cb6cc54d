package cli

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// ExitCode is the process exit status. The values follow grep, diff and
// staticcheck: 0 success or gate passed, 1 gate failed, 2 usage, input or
// internal error; and a shell's 128 + N for a command stopped by signal N
// (130 SIGINT, 143 SIGTERM; see InterruptedError).
type ExitCode int

const (
	ExitOK     ExitCode = 0
	ExitFailed ExitCode = 1
	ExitError  ExitCode = 2
)

// FlagError is a usage error; the usage is printed with it.
type FlagError struct{ err error }

func (e *FlagError) Error() string { return e.err.Error() }
func (e *FlagError) Unwrap() error { return e.err }

// FlagErrorf returns a usage error.
func FlagErrorf(format string, args ...any) error {
	return &FlagError{err: fmt.Errorf(format, args...)}
}

// GateFailedError reports a gate whose conditions did not hold. Its report
// has already been printed.
type GateFailedError struct{ Failed int }

func (e *GateFailedError) Error() string { return fmt.Sprintf("%d gate condition(s) failed", e.Failed) }

// WriteError is output that could not be written: the command's result did
// not reach its reader.
type WriteError struct{ err error }

func (e *WriteError) Error() string { return "writing standard output: " + e.err.Error() }
func (e *WriteError) Unwrap() error { return e.err }

// InterruptedError is a command stopped by a signal (Ctrl-C's SIGINT,
// CI's SIGTERM): its exit status is 128 + the signal's number, as a shell
// reports a process the signal ended (130, 143).
type InterruptedError struct {
	Signal syscall.Signal
	// Done says the command had finished its work when the signal came.
	Done bool
	// Kept is what the command had written for good before it (a run
	// stored), which stays.
	Kept []string
}

func (e *InterruptedError) Error() string {
	name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[e.Signal]
	if name == "" {
		name = e.Signal.String()
	}
	if e.Done {
		return fmt.Sprintf("interrupted (%s) as it finished: its work is complete", name)
	}
	if len(e.Kept) > 0 {
		stays := "which stays"
		if len(e.Kept) > 1 {
			stays = "which stay"
		}
		kept := strings.Join(e.Kept, ", ")
		if n := len(e.Kept); n > 4 {
			kept = fmt.Sprintf("%s, %s, %d more, and %s", e.Kept[0], e.Kept[1], n-3, e.Kept[n-1])
		}
		return fmt.Sprintf("interrupted (%s): stopped after storing %s, %s; nothing else written (a run being stored is rolled back, no output file is made)", name, kept, stays)
	}
	return fmt.Sprintf("interrupted (%s): stopped, nothing half-written (a run being stored is rolled back, no output file is made)", name)
}

// exitCodeOf maps an error to the exit status; the only place that does.
func exitCodeOf(err error) ExitCode {
	if err == nil {
		return ExitOK
	}
	var intr *InterruptedError
	if errors.As(err, &intr) {
		return ExitCode(128 + int(intr.Signal))
	}
	var gate *GateFailedError
	if errors.As(err, &gate) && !errors.As(err, new(*WriteError)) {
		return ExitFailed
	}
	return ExitError
}
