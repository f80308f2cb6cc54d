package cli

import (
	"errors"
	"fmt"
)

// ExitCode is the process exit status. The values follow grep, diff and
// staticcheck: 0 success or gate passed, 1 gate failed, 2 usage, input or
// internal error.
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

// exitCodeOf maps an error to the exit status; the only place that does.
func exitCodeOf(err error) ExitCode {
	if err == nil {
		return ExitOK
	}
	var gate *GateFailedError
	if errors.As(err, &gate) && !errors.As(err, new(*WriteError)) {
		return ExitFailed
	}
	return ExitError
}
