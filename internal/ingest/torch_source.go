package ingest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
)

// jsonSource hands the decoder the decoded text of the export, hashing
// it as the line reader does (each line without its CR LF, then LF) and
// counting its lines, so that a byte offset can be told as a line.
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
	// aside hashes the chunks handed out on a goroutine of its own, in
	// order, from copies taken from spare: the parse does not wait for
	// the digest (a second of a gigabyte's). It starts at the first chunk
	// and stops at the end of the input, or when the reader does.
	aside  chan []byte
	spare  chan []byte
	hashed chan struct{}
}

// asideChunks bounds the chunks waiting to be hashed.
const asideChunks = 4

// hashAside hands a copy of chunk to the hashing goroutine.
func (j *jsonSource) hashAside(chunk []byte) {
	if j.h == nil {
		return
	}
	if j.aside == nil {
		j.aside, j.spare, j.hashed = make(chan []byte, asideChunks), make(chan []byte, asideChunks), make(chan struct{})
		for range asideChunks {
			j.spare <- nil
		}
		go func() {
			for b := range j.aside {
				j.th.write(b)
				j.spare <- b
			}
			close(j.hashed)
		}()
	}
	j.aside <- append((<-j.spare)[:0], chunk...)
}

// stop waits until the chunks handed out are hashed.
func (j *jsonSource) stop() {
	if j.aside != nil {
		close(j.aside)
		<-j.hashed
		j.aside = nil
	}
}

func (j *jsonSource) Read(p []byte) (int, error) {
	n, err := j.br.Read(p)
	if n > 0 {
		chunk := p[:n]
		if bytes.IndexByte(chunk, 0) >= 0 {
			off := j.n + int64(bytes.IndexByte(chunk, 0))
			return 0, &syntaxError{File: j.src, Line: j.lines + bytes.Count(chunk[:off-j.n], newline) + 1, Msg: fmt.Sprintf("byte %d: binary data (NUL byte): not a trace", off)}
		}
		for i := 0; ; {
			k := bytes.IndexByte(chunk[i:], '\n')
			if k < 0 {
				break
			}
			j.marks[j.nm%len(j.marks)] = j.n + int64(i+k)
			j.nm++
			j.lines++
			i += k + 1
		}
		j.hashAside(chunk)
		j.n += int64(n)
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
