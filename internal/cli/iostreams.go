package cli

import (
	"io"
	"os"
)

// IOStreams are the command's standard streams, replaceable in tests.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// Color enables ANSI color: only for a terminal, and never with NO_COLOR.
	Color bool
	// TTY reports whether Out is a terminal.
	TTY bool
	// Getenv reads the environment (PROFAN_DB, NO_COLOR).
	Getenv func(string) string
}

// System returns the process's streams.
func System() *IOStreams {
	tty := isTerminal(os.Stdout)
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		TTY: tty, Color: tty && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb",
		Getenv: os.Getenv,
	}
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeCharDevice != 0
}
