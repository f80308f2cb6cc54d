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

// Trace writes src (an nvprof --print-gpu-trace CSV export) to w with its
// data rows repeated until at least launches kernel rows are written. Each
// repetition shifts the Start column past the end of the previous one and
// the correlation IDs (the " [N]" that ends a kernel's Name) past the
// largest ID of the capture, so that every copy is a distinct launch at a
// distinct time. With preamble false the bare table is written (header,
// units row, rows), which CSV tools such as sqlite3's .import read.
func Trace(w io.Writer, src string, launches int, preamble bool) (int64, int, error) {
	b, err := os.ReadFile(src)
	if err != nil {
		return 0, 0, err
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	hdr := -1
	for i, l := range lines {
		if bytes.HasPrefix(l, []byte(`"Start","Duration",`)) {
			hdr = i
			break
		}
	}
	if hdr < 0 || hdr+1 >= len(lines) {
		return 0, 0, fmt.Errorf("%s: no nvprof gpu-trace header", src)
	}
	type row struct {
		start, dur float64
		rest       []byte // from the comma after Duration's value, Name's ID cut out
		id         int    // correlation ID, -1 for rows without one
		tail       []byte // what follows the ID
	}
	var rows []row
	kernels := 0
	maxID, end := 0, 0.0
	first := 0.0
	for _, l := range lines[hdr+2:] {
		f := bytes.SplitN(l, []byte(","), 3)
		if len(f) < 3 {
			continue
		}
		s, err1 := strconv.ParseFloat(string(f[0]), 64)
		d, err2 := strconv.ParseFloat(string(f[1]), 64)
		if err1 != nil || err2 != nil {
			continue
		}
		r := row{start: s, dur: d, rest: f[2], id: -1}
		if i := bytes.LastIndex(r.rest, []byte(" [")); i >= 0 {
			if j := bytes.IndexByte(r.rest[i:], ']'); j > 2 {
				if id, err := strconv.Atoi(string(r.rest[i+2 : i+j])); err == nil {
					r.id, r.tail, r.rest = id, r.rest[i+j:], r.rest[:i+2]
					kernels++
					maxID = max(maxID, id)
				}
			}
		}
		if len(rows) == 0 {
			first = s
		}
		end = max(end, s+d)
		rows = append(rows, r)
	}
	if kernels == 0 {
		return 0, 0, fmt.Errorf("%s: no kernel rows", src)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	var n int64
	write := func(p []byte) {
		m, _ := bw.Write(p)
		n += int64(m)
	}
	start := hdr
	if preamble {
		start = 0
	}
	for _, l := range lines[start : hdr+2] {
		write(l)
	}
	period := end - first + 1 // in the Start column's unit
	written := 0
	var buf []byte
	for rep := 0; written < launches; rep++ {
		for _, r := range rows {
			buf = strconv.AppendFloat(buf[:0], r.start+float64(rep)*period, 'f', 6, 64)
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, r.dur, 'f', 6, 64)
			buf = append(buf, ',')
			buf = append(buf, r.rest...)
			if r.id >= 0 {
				buf = strconv.AppendInt(buf, int64(r.id+rep*(maxID+1)), 10)
				buf = append(buf, r.tail...)
				written++
			}
			write(buf)
		}
	}
	return n, written, bw.Flush()
}
