package cli

import (
	"context"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/profan-dev/profan/internal/report"
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
	// kept is what the command has written for good (a run stored), which
	// an interruption after it does not undo, and says.
	kept *keptList
}

// keptList is IOStreams.kept: added to by the command, read by Main, and,
// when the command does not stop in time, by the signal's goroutine.
type keptList struct {
	mu    sync.Mutex
	items []string
}

// keep adds what to io's kept list.
func (io *IOStreams) keep(what string) {
	if io.kept == nil {
		io.kept = &keptList{}
	}
	io.kept.mu.Lock()
	io.kept.items = append(io.kept.items, what)
	io.kept.mu.Unlock()
}

// now is a copy of what the command has kept so far.
func (k *keptList) now() []string {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.items)
}

// System returns the process's streams. Standard output is written
// whatever it is: /dev/null opened read-write (Python's
// subprocess.DEVNULL, systemd's StandardOutput=null) is a discard a CI
// runner asked for, and a stream closed at start (cmd >&-) cannot be told
// from it, since Go's runtime opens /dev/null read-write in its place.
// Running beats refusing there.
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

// outWriter is what commands write their output through: it keeps the
// first write error (a full disk, a closed descriptor), which Main turns
// into exit status 2, and (but through Raw) keeps text from a name from
// reading as a CI log's command. GitHub Actions runs a line that starts,
// after blanks, with "::" (::error, ::add-mask::, ::stop-commands::) and
// one holding "##[" and a command name; a kernel name, a label or a path
// at the start of a line would do the same. Such a line gets a ' before
// its "::", and "##[" becomes "## [".
type outWriter struct {
	w    io.Writer
	err  error
	mid  bool   // past the line's leading blanks
	pend []byte // the end of the last write that may begin "::" or "##["
	buf  []byte
}

// newOutWriter wraps w.
func newOutWriter(w io.Writer) *outWriter { return &outWriter{w: w} }

// Raw returns a writer to the same stream without the CI-log guard: for
// the format that writes workflow commands on purpose.
func (o *outWriter) Raw() io.Writer { return rawWriter{o} }

type rawWriter struct{ o *outWriter }

func (r rawWriter) Write(p []byte) (int, error) {
	r.o.flush()
	r.o.mid = len(p) > 0 && p[len(p)-1] != '\n'
	return r.o.emit(p, len(p))
}

func (o *outWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	in := p
	if len(o.pend) > 0 {
		in = append(o.pend, p...)
		o.pend = nil
	}
	out := o.buf[:0]
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c == '\n' || c == '\r':
			o.mid = false
		case !o.mid && (c == ' ' || c == '\t'):
		case c == ':' && !o.mid:
			if i+1 == len(in) {
				o.pend = append(o.pend[:0], in[i:]...)
				i = len(in)
				continue
			}
			if in[i+1] == ':' {
				out = append(out, '\'')
			}
			o.mid = true
		case c == '#':
			rest := in[i:]
			if len(rest) < 3 && strings.HasPrefix("##[", string(rest)) {
				o.pend = append(o.pend[:0], rest...)
				i = len(in)
				continue
			}
			o.mid = true
			if string(rest[:min(3, len(rest))]) == "##[" {
				out = append(out, '#', '#', ' ')
				i++
				continue
			}
		default:
			o.mid = true
		}
		out = append(out, c)
	}
	o.buf = out
	return o.emit(out, len(p))
}

// emit writes b, reporting n bytes written.
func (o *outWriter) emit(b []byte, n int) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	if _, err := o.w.Write(b); err != nil {
		o.err = err
		return 0, err
	}
	return n, nil
}

// flush writes what is held back (an output that ends in ":" or "#").
func (o *outWriter) flush() error {
	if len(o.pend) > 0 {
		p := o.pend
		o.pend = nil
		o.emit(p, len(p))
	}
	return o.err
}

// formatOut is the stream a format writes to: the GitHub format's workflow
// commands are meant, so it writes past the CI-log guard (it escapes what
// it quotes itself).
func formatOut(w io.Writer, format string) io.Writer {
	if o, ok := w.(*outWriter); ok && format == report.GitHub.Name {
		return o.Raw()
	}
	return w
}

// ctxWriter is a writer whose writes fail once ctx is cancelled: a render
// to it stops at its next buffer.
type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// quietErr is where --quiet sends the notes of standard error.
var quietErr io.Writer = io.Discard
