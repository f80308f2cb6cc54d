package ingest

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/profan-dev/profan/internal/safe"
)

// lineAhead reads a CSV export's text ahead of its parse, on a goroutine
// of its own, in chunks: there each chunk is read, its line ends found,
// its lines checked (safe.Plain, which nearly every line is) and its text
// hashed (textHash: the line reader's digest, each line without its CR
// LF, then LF). The parse's goroutine, which bounds the wall time of a
// read (the analysis and the digest run beside it), is then left to cut
// the lines at the ends found; a line across two chunks, or one that is
// not plain, takes the checks of lineReader.read there. The lines are
// those read would give, with the same errors at the same lines.
type lineAhead struct {
	full, free chan *aheadChunk
	quit       chan struct{}
	stopped    chan struct{} // closed when the goroutine has ended
	th         textHash      // the goroutine's until the text's end
	made       int           // chunks made
	size       int

	cur  *aheadChunk
	li   int    // the next line end of cur
	at   int    // the offset in cur.b of the next line
	part []byte // the start of a line the chunks before cur held
	done bool   // the text's end (or an error) was handed out
	err  error  // that error, returned again
}

// aheadChunk is a piece of the text read ahead.
type aheadChunk struct {
	buf []byte
	b   []byte  // the bytes read, buf[:n]
	nl  []int32 // the offsets in b of its LFs
	// odd is the offset in b of the first line ending in b that is not
	// plain (printable ASCII and tabs, but its CR LF), the part of it in
	// b: the lines before it are; len(b) when there is none. A line that
	// started in the chunk before is checked whole by the reader.
	odd int
	err error // the read's error, after b
}

// aheadChunks is how many chunks may be read ahead, and their
// size, aheadSize (less for a small input).
const (
	aheadChunks = 3
	aheadSize   = 128 << 10
)

// startAhead starts reading ahead from l.br, hashing into l.h; it
// reports true.
func (l *lineReader) startAhead() bool {
	a := &lineAhead{full: make(chan *aheadChunk, aheadChunks), free: make(chan *aheadChunk, aheadChunks),
		quit: make(chan struct{}), stopped: make(chan struct{}), size: min(l.size, aheadSize)}
	if ah, ok := l.h.(*asideHash); ok {
		// The digest is taken on the read ahead's goroutine, which
		// hands it the chunks without a copy: what the asideHash holds
		// is hashed first, and it stops handing on.
		ah.wait()
	}
	a.th.h = l.h
	l.ahead = a
	go func() {
		defer close(a.stopped)
		a.prefetch(l.br)
	}()
	return true
}

// stopAhead ends the read ahead and waits for its goroutine: nothing
// reads the input or writes the hash once it returns.
func (l *lineReader) stopAhead() {
	if a := l.ahead; a != nil {
		close(a.quit)
		<-a.stopped
		l.ahead, l.aheadOK = nil, false
	}
}

// prefetch reads chunks until the text's end, an error, or quit.
func (a *lineAhead) prefetch(br io.Reader) {
	defer close(a.full)
	for {
		var c *aheadChunk
		select {
		case c = <-a.free:
		case <-a.quit:
			return
		default:
			if a.made < aheadChunks {
				a.made++
				c = &aheadChunk{buf: make([]byte, a.size)}
				break
			}
			select {
			case c = <-a.free:
			case <-a.quit:
				return
			}
		}
		n, err := 0, error(nil)
		for n == 0 && err == nil {
			n, err = br.Read(c.buf)
		}
		c.b, c.err = c.buf[:n], err
		c.nl, c.odd = c.nl[:0], n
		for start := 0; ; {
			k := bytes.IndexByte(c.b[start:], '\n')
			if k < 0 {
				break
			}
			end := start + k
			c.nl = append(c.nl, int32(end))
			if c.odd == n && !safe.Plain(bytes.TrimSuffix(c.b[start:end], cr)) {
				c.odd = start
			}
			start = end + 1
		}
		a.th.write(c.b)
		select {
		case a.full <- c:
		case <-a.quit:
			return
		}
		if err != nil {
			return
		}
	}
}

// readAhead is lineReader.read from the chunks read ahead.
func (l *lineReader) readAhead() ([]byte, error) {
	a := l.ahead
	if a.done {
		return nil, a.err
	}
	for {
		if c := a.cur; c != nil {
			if a.li < len(c.nl) {
				start, end := a.at, int(c.nl[a.li])
				a.li++
				a.at = end + 1
				line := c.b[start:end]
				if len(a.part) > 0 {
					a.part = append(a.part, line...)
					line = a.part
					a.part = a.part[:0]
					if len(line) > maxLine {
						return a.fail(&syntaxError{File: l.src, Line: l.n + 1, Msg: fmt.Sprintf("line longer than %d bytes (not a profiler export?)", maxLine)})
					}
					return l.line(line, false, false)
				}
				return l.line(line, start < c.odd, false)
			}
			// No line end left: the rest starts a line the next chunk ends.
			a.part = append(a.part, c.b[a.at:]...)
			if len(a.part) > maxLine {
				return a.fail(&syntaxError{File: l.src, Line: l.n + 1, Msg: fmt.Sprintf("line longer than %d bytes (not a profiler export?)", maxLine)})
			}
			err := c.err
			a.cur = nil
			a.free <- c
			if err != nil {
				return l.endAhead(err)
			}
		}
		c, ok := <-a.full
		if !ok {
			return a.fail(io.ErrUnexpectedEOF) // not met: the goroutine ends after an error handed out
		}
		a.cur, a.li, a.at = c, 0, 0
	}
}

// endAhead ends the text at the read's error err: a last line without
// its line end, or the end, or the error.
func (l *lineReader) endAhead(err error) ([]byte, error) {
	a := l.ahead
	if de := decodeError(l.src, l.n+1, err); de != nil {
		return a.fail(de)
	}
	if err != io.EOF {
		var se *syntaxError
		if errors.As(err, &se) {
			return a.fail(se) // a check of the stream beneath (a pipe's spool)
		}
		return a.fail(fmt.Errorf("reading %s: %w", l.src, err))
	}
	a.th.end() // the goroutine has ended: the hash is this one's
	a.done, a.err = true, io.EOF
	if len(a.part) == 0 {
		return nil, io.EOF
	}
	line := a.part
	a.part = nil
	return l.line(line, false, true)
}

func (a *lineAhead) fail(err error) ([]byte, error) {
	a.done, a.err = true, err
	return nil, err
}
