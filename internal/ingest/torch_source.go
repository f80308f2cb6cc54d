package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"sync/atomic"
)

// jsonSource hands the decoder the decoded text of the export, hashing
// it as the line reader does (each line without its CR LF, then LF) and
// counting its lines, so that a byte offset can be told as a line.
//
// The text is read ahead on a goroutine of its own (prefetch), in chunks
// of srcChunk bytes, each checked for NUL and its line ends found there:
// the decoder's goroutine, which bounds the wall time of a read, only
// copies the chunk and notes its line ends. The digest's goroutine
// (aside) hashes the same chunks, in order, without a copy; a chunk goes
// back to the pool when both are done with it.
type jsonSource struct {
	src   string
	br    *bufio.Reader
	h     interface{ Write([]byte) (int, error) }
	th    textHash // hashes into h
	n     int64    // bytes handed out
	lines int      // line ends handed out
	// marks are the offsets of the line ends handed out, the last ones
	// only: lineAt looks up recent offsets (the decoder's errors).
	marks [16384]int64
	nm    int
	done  bool
	// The read ahead: chunks come on full, go back on free; cur is the
	// one being handed out, from its byte at and its line end nli.
	started, quitting bool
	full              chan *chunk
	free              chan *chunk
	aside             chan *chunk
	quit              chan struct{}
	stopped           chan struct{} // closed when prefetch and the hashing have ended
	cur               *chunk
	at, nli           int
}

// chunk is a piece of the text read ahead.
type chunk struct {
	buf  []byte
	b    []byte  // the bytes read, buf[:n]
	base int64   // the offset of b[0]
	nl   []int32 // the offsets in b of its line ends
	nul  int     // the offset in b of its first NUL byte, or -1
	err  error   // the read's error, once b is handed out
	refs atomic.Int32
}

// srcChunk is the size of a chunk read ahead, srcChunks their number.
const (
	srcChunk  = 256 << 10
	srcChunks = 6
)

// start starts the read ahead and the hashing.
func (j *jsonSource) start() {
	j.started = true
	j.full, j.free, j.quit, j.stopped = make(chan *chunk, srcChunks), make(chan *chunk, srcChunks), make(chan struct{}), make(chan struct{})
	for range srcChunks {
		j.free <- &chunk{buf: make([]byte, srcChunk)}
	}
	hashed := make(chan struct{})
	if j.h != nil {
		j.aside = make(chan *chunk, srcChunks)
		go func() {
			for c := range j.aside {
				j.th.write(c.b)
				j.release(c)
			}
			close(hashed)
		}()
	} else {
		close(hashed)
	}
	go func() {
		j.prefetch()
		if j.aside != nil {
			close(j.aside)
		}
		<-hashed
		close(j.stopped)
	}()
}

// prefetch reads the text chunk by chunk until its end, an error, or
// quit.
func (j *jsonSource) prefetch() {
	defer close(j.full)
	var off int64
	for {
		var c *chunk
		select {
		case c = <-j.free:
		case <-j.quit:
			return
		}
		n, err := 0, error(nil)
		for n == 0 && err == nil {
			n, err = j.br.Read(c.buf)
		}
		c.b, c.base, c.err, c.nul = c.buf[:n], off, err, bytes.IndexByte(c.buf[:n], 0)
		off += int64(n)
		c.nl = c.nl[:0]
		for i := 0; ; {
			k := bytes.IndexByte(c.b[i:], '\n')
			if k < 0 {
				break
			}
			c.nl = append(c.nl, int32(i+k))
			i += k + 1
		}
		c.refs.Store(1)
		if j.aside != nil && c.nul < 0 {
			c.refs.Store(2)
			j.aside <- c
		}
		select {
		case j.full <- c:
		case <-j.quit:
			j.release(c)
			return
		}
		if err != nil || c.nul >= 0 {
			return
		}
	}
}

// release hands a chunk back to the pool once its last user is done.
func (j *jsonSource) release(c *chunk) {
	if c.refs.Add(-1) == 0 {
		j.free <- c
	}
}

// stop ends the read ahead and waits until the chunks handed out are
// hashed.
func (j *jsonSource) stop() {
	if j.started && !j.quitting {
		j.quitting = true
		close(j.quit)
		<-j.stopped
	}
}

func (j *jsonSource) Read(p []byte) (int, error) {
	if j.done {
		return 0, io.EOF
	}
	if !j.started {
		j.start()
	}
	c := j.cur
	if c == nil || j.at == len(c.b) {
		if c != nil {
			j.release(c)
		}
		var ok bool
		if c, ok = <-j.full; !ok {
			// The read ahead ended at an error handed out before.
			return 0, io.ErrUnexpectedEOF
		}
		j.cur, j.at, j.nli = c, 0, 0
		if c.nul >= 0 {
			off := j.n + int64(c.nul)
			line := j.lines + 1
			for _, k := range c.nl {
				if int(k) < c.nul {
					line++
				}
			}
			j.at = len(c.b)
			return 0, &syntaxError{File: j.src, Line: line, Msg: fmt.Sprintf("byte %d: binary data (NUL byte): not a trace", off)}
		}
	}
	n := copy(p, c.b[j.at:])
	j.at += n
	for ; j.nli < len(c.nl) && int(c.nl[j.nli]) < j.at; j.nli++ {
		j.marks[j.nm%len(j.marks)] = c.base + int64(c.nl[j.nli])
		j.nm++
		j.lines++
	}
	j.n += int64(n)
	var err error
	if j.at == len(c.b) {
		err = c.err
	}
	if err == io.EOF && !j.done {
		j.done = true
		j.stop()
		j.th.end() // the digest of a file without its last line end
		if j.n > 0 && j.lastNL() != j.n-1 {
			j.lines++
		}
	}
	if de := decodeError(j.src, j.lines+1, err); de != nil {
		return n, de
	}
	return n, err
}

func (j *jsonSource) lastNL() int64 {
	if j.nm == 0 {
		return -1
	}
	return j.marks[(j.nm-1)%len(j.marks)]
}

// lineAt is the 1-based line of byte off, when off is among the recent
// line ends kept; else 0.
func (j *jsonSource) lineAt(off int64) int {
	lo := max(0, j.nm-len(j.marks))
	at := func(k int) int64 { return j.marks[k%len(j.marks)] }
	if j.nm > 0 && lo > 0 && off <= at(lo) {
		return 0
	}
	// line = 1 + the line ends before off: the marks kept are sorted.
	k := lo + sort.Search(j.nm-lo, func(i int) bool { return at(lo+i) >= off })
	return k + 1
}

// lineAfter is lineAt for offsets that do not decrease from call to call
// (the events of a trace in turn), found from k, the caller's: the line
// ends before the offset asked last.
func (j *jsonSource) lineAfter(off int64, k *int) int {
	lo := max(0, j.nm-len(j.marks))
	if j.nm > 0 && lo > 0 && off <= j.marks[lo%len(j.marks)] {
		return 0
	}
	*k = max(*k, lo)
	for *k < j.nm && j.marks[*k%len(j.marks)] < off {
		*k++
	}
	return *k + 1
}
