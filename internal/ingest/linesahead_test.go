package ingest

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// readAll reads every line of text with a line reader, the read ahead on
// or off (chunks of size bytes), and returns what it gave: the lines with
// their numbers, the error that ended it, and the text it hashed.
func readAll(t testing.TB, text []byte, ahead bool, size int) (lines []string, end string, hashed []byte) {
	t.Helper()
	var h bytes.Buffer
	lr, err := newLineReader(bytes.NewReader(text), "in.csv", size)
	if err != nil {
		return nil, err.Error(), nil
	}
	lr.h = &h
	lr.aheadOK = ahead
	defer lr.stopAhead()
	for {
		line, err := lr.next()
		if err == io.EOF {
			return lines, "EOF", h.Bytes()
		}
		if err != nil {
			return lines, err.Error(), nil // no digest is asked for after an error
		}
		lines = append(lines, fmt.Sprintf("%d:%q", lr.n, line))
	}
}

func linesAheadSeeds() [][]byte {
	long := strings.Repeat("x", 300)
	return [][]byte{
		nil,
		[]byte("a"),
		[]byte("a\n"),
		[]byte("a\r\n"),
		[]byte("a\r\nb\r\n"),
		[]byte("a\rb\n\r"),
		[]byte("\r"),
		[]byte("\n\n\n"),
		[]byte("1,2,3\n4,5,6"),
		[]byte("1,2,3\n\"4\",\"5\""),
		[]byte("x,y\n1,\"a\nb\"\n"),
		[]byte("ok\nx\x00y\nz\n"),
		[]byte("ok\n\xff\xfe bad\nz\n"),
		[]byte("ok\n\x1b[31mred\x1b[0m\nz\n"),
		[]byte("ok\nnaïve,ünïcode\nz\n"),
		[]byte("tab\there\n" + long + "\n" + long + "\r\n" + long),
		[]byte(strings.Repeat("row,1,2.5,\"name\"\n", 40)),
		[]byte(strings.Repeat("row,1,2.5\r\n", 40) + "last"),
	}
}

// TestLinesAhead: the read ahead gives the lines, numbers, errors and
// hashed text the line reader gives, whatever its chunks' size.
func TestLinesAhead(t *testing.T) {
	for i, text := range linesAheadSeeds() {
		want, wantEnd, wantHash := readAll(t, text, false, 4096)
		for _, size := range []int{1, 2, 3, 7, 16, 64, 4096} {
			got, gotEnd, gotHash := readAll(t, text, true, size)
			if strings.Join(got, "\n") != strings.Join(want, "\n") || gotEnd != wantEnd || !bytes.Equal(gotHash, wantHash) {
				t.Errorf("seed %d, chunks of %d:\n got %v, %s, hashed %q\nwant %v, %s, hashed %q", i, size, got, gotEnd, gotHash, want, wantEnd, wantHash)
			}
		}
	}
}

// TestLinesAheadLong: a line longer than maxLine is refused at its line,
// read ahead or not.
func TestLinesAheadLong(t *testing.T) {
	text := []byte("a\n" + strings.Repeat("y", maxLine+10) + "\nb\n")
	_, want, _ := readAll(t, text, false, 4096)
	_, got, _ := readAll(t, text, true, 64<<10)
	if got != want || !strings.Contains(got, "in.csv:2: line longer") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzLinesAhead(f *testing.F) {
	for _, s := range linesAheadSeeds() {
		f.Add(s, uint8(7))
	}
	f.Fuzz(func(t *testing.T, text []byte, size uint8) {
		want, wantEnd, wantHash := readAll(t, text, false, 4096)
		got, gotEnd, gotHash := readAll(t, text, true, int(size)+1)
		if strings.Join(got, "\n") != strings.Join(want, "\n") || gotEnd != wantEnd || !bytes.Equal(gotHash, wantHash) {
			t.Errorf("chunks of %d:\n got %v, %s, hashed %q\nwant %v, %s, hashed %q", int(size)+1, got, gotEnd, gotHash, want, wantEnd, wantHash)
		}
	})
}
