// Package tile makes large benchmark inputs from real captures: it repeats
// the data rows of an ncu details or raw export, renumbering the launch IDs
// so that every copy is a distinct launch. No value is invented.
package tile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Details writes src (an ncu details or raw export) to w, its data rows
// repeated until at least target bytes are written, with the ID column (the
// first) renumbered in each repetition. It returns the bytes written.
func Details(w io.Writer, src string, target int64) (int64, error) {
	return tileExport(w, src, target, true)
}

// Table is Details without the profiler's message lines: the bare CSV
// table, which CSV tools such as sqlite3's .import and pandas read.
func Table(w io.Writer, src string, target int64) (int64, error) {
	return tileExport(w, src, target, false)
}

func tileExport(w io.Writer, src string, target int64, preamble bool) (int64, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return 0, err
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	hdr := -1
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(`"ID",`)) {
			hdr = i
			break
		}
	}
	if hdr < 0 {
		return 0, fmt.Errorf("%s: no ncu header", src)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	write := func(p []byte) {
		m, _ := bw.Write(p)
		n += int64(m)
	}
	start := 0
	if !preamble {
		start = hdr
	}
	for _, l := range lines[start : hdr+1] {
		write(l)
	}
	body := lines[hdr+1:]
	first := 0
	if len(body) > 0 && bytes.HasPrefix(body[0], []byte(`"",`)) { // raw page units row
		write(body[0])
		first = 1
	}
	var rows [][]byte
	maxID := -1
	for _, l := range body[first:] {
		if !bytes.HasPrefix(l, []byte(`"`)) {
			break
		}
		rows = append(rows, l)
		if id, ok := idOf(l); ok && id > maxID {
			maxID = id
		}
	}
	if len(rows) == 0 || maxID < 0 {
		return 0, fmt.Errorf("%s: no data rows", src)
	}
	for rep := 0; n < target; rep++ {
		off := rep * (maxID + 1)
		for _, l := range rows {
			id, _ := idOf(l)
			end := bytes.IndexByte(l[1:], '"') + 2
			write([]byte(`"` + strconv.Itoa(id+off) + `"`))
			write(l[end:])
		}
	}
	return n, bw.Flush()
}

func idOf(l []byte) (int, bool) {
	if len(l) < 2 || l[0] != '"' {
		return 0, false
	}
	end := bytes.IndexByte(l[1:], '"')
	if end < 0 {
		return 0, false
	}
	id, err := strconv.Atoi(string(l[1 : end+1]))
	return id, err == nil
}
