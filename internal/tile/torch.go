package tile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
)

// torchNumber finds the numbers a repetition moves: a time ("ts"), a
// correlation ID and a flow's ID.
var torchNumber = regexp.MustCompile(`"(ts|correlation|id)": (-?[0-9]+)(\.[0-9]+)?`)

// Torch writes src (a PyTorch profiler trace, .json or .json.gz) to w with
// its events repeated until at least target bytes are written. Each
// repetition shifts the times past the end of the previous one and the
// correlation and flow IDs past the largest of the capture, so that every
// copy is distinct work at a distinct time; the header and the trailer
// are written once. It returns the bytes and the events written.
func Torch(w io.Writer, src string, target int64) (int64, int, error) {
	b, err := readMaybeGzip(src)
	if err != nil {
		return 0, 0, err
	}
	start := bytes.Index(b, []byte(`"traceEvents": [`))
	if start < 0 {
		return 0, 0, fmt.Errorf("%s: no traceEvents", src)
	}
	start += len(`"traceEvents": [`)
	var events [][]byte
	rest, off := b[start:], start
	end := off
	for {
		i := bytes.Index(rest, []byte("\n  {"))
		if i < 0 {
			break
		}
		j := bytes.Index(rest[i:], []byte("\n  }"))
		if j < 0 {
			break
		}
		events = append(events, rest[i:i+j+4])
		end = off + i + j + 4
		rest, off = rest[i+j+4:], off+i+j+4
	}
	if len(events) == 0 {
		return 0, 0, fmt.Errorf("%s: no events", src)
	}
	// The span of the times and the largest ID.
	var lo, hi, maxID int64 = 1 << 62, -1 << 62, 0
	for _, e := range events {
		for _, m := range torchNumber.FindAllSubmatch(e, -1) {
			v, _ := strconv.ParseInt(string(m[2]), 10, 64)
			if string(m[1]) == "ts" {
				lo, hi = min(lo, v), max(hi, v)
			} else {
				maxID = max(maxID, v)
			}
		}
	}
	span := hi - lo + 1000 // microseconds, a millisecond apart
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := &counter{w: bw}
	cw.Write(b[:start])
	n := 0
	var buf []byte
	for k := int64(0); cw.n < target; k++ {
		for _, e := range events {
			if n > 0 {
				cw.Write([]byte{','})
			}
			buf = buf[:0]
			last := 0
			for _, m := range torchNumber.FindAllSubmatchIndex(e, -1) {
				v, _ := strconv.ParseInt(string(e[m[4]:m[5]]), 10, 64)
				if string(e[m[2]:m[3]]) == "ts" {
					v += k * span
				} else {
					v += k * (maxID + 1)
				}
				buf = append(buf, e[last:m[4]]...)
				buf = strconv.AppendInt(buf, v, 10)
				last = m[5]
			}
			buf = append(buf, e[last:]...)
			cw.Write(buf)
			n++
		}
	}
	cw.Write(b[end:])
	if err := bw.Flush(); err != nil {
		return cw.n, n, err
	}
	return cw.n, n, cw.err
}

type counter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *counter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

func readMaybeGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if m, _ := br.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	}
	return io.ReadAll(br)
}
