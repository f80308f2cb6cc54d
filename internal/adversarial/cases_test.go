package adversarial

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
)

// fixture is a real export the mutations start from.
type fixture struct {
	name   string
	path   string // under the repository
	header string // prefix of its (first) header line
	units  bool   // a units row follows the header
	text   string // decoded
	lines  []string
	hdr    int   // index of the header line
	rows   []int // indices of its data rows
}

var fixtureSpecs = []fixture{
	{name: "ncu-details-rules", path: "fixtures/ncu/saxpy.details.csv", header: `"ID",`},
	{name: "ncu-details", path: "fixtures/ncu/copy.details.csv", header: `"ID",`},
	{name: "ncu-details-nvtx-gz", path: "fixtures/variants/variants.details.csv.gz", header: `"ID",`},
	{name: "ncu-details-julia", path: "internal/ingest/testdata/ncu/clima-a100-cc80-full-set-rules-julia.csv", header: `"ID",`},
	{name: "ncu-raw", path: "fixtures/ncu/copy.metrics.raw.csv", header: `"ID",`, units: true},
	{name: "ncu-summary", path: "fixtures/ncu/copy.summary.csv", header: `"Process ID",`},
	{name: "ncu-source", path: "fixtures/ncu/matmul.source.sass.csv", header: `"Address",`},
	{name: "nvprof-trace", path: "internal/ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv", header: `"Start",`, units: true},
	{name: "nvprof-metrics", path: "internal/ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-metrics.csv", header: `"Device","Kernel"`},
	{name: "nvprof-events", path: "internal/ingest/testdata/nvprof/ieee2017-k40c-events-no-total-then-metrics.csv", header: `"Device","Kernel"`},
	{name: "nvprof-wide", path: "internal/ingest/testdata/nvprof/ieee2017-gtxtitan-wide-per-kernel-events-metrics.csv", header: `"Device","Context"`, units: true},
	{name: "nvprof-summary", path: "internal/ingest/testdata/nvprof/ieee2017-k20c-gpu-api-summary-no-type-col-sci.csv", header: `"Time(%)",`, units: true},
	{name: "nsys-gputrace", path: "internal/ingest/testdata/nsys/cml-v100-nsys2020-stats-gputrace-minimal-quoting.csv", header: `Start(sec),`},
	{name: "nsys-kern-sum", path: "internal/ingest/testdata/nsys/llmperfopt-nsys-stats-cuda-gpu-kern-sum.csv", header: `Time (%),`},
	{name: "nsys-api-sum", path: "internal/ingest/testdata/nsys/cufcm-rtx2080ti-nsys2022-stats-cudaapisum-osrtsum.csv", header: `Time (%),`},
	{name: "nsys-api-trace", path: "internal/ingest/testdata/nsys/tensoriterator-rtx3090-nsys2022-stats-cudaapitrace-gputrace.csv.gz", header: `Start (ns),`},
}

func loadFixtures(t *testing.T) []*fixture {
	var out []*fixture
	for _, spec := range fixtureSpecs {
		f := spec
		b, err := os.ReadFile(filepath.Join(repo, f.path))
		if err != nil {
			t.Fatal(err)
		}
		f.text = string(gunzip(t, b))
		f.lines = strings.SplitAfter(f.text, "\n")
		if f.lines[len(f.lines)-1] == "" {
			f.lines = f.lines[:len(f.lines)-1]
		}
		f.hdr = -1
		for i, l := range f.lines {
			if f.hdr < 0 && strings.HasPrefix(l, f.header) {
				f.hdr = i
				continue
			}
			if f.hdr < 0 || f.units && i == f.hdr+1 {
				continue
			}
			c := l[0]
			if strings.Count(l, ",") >= 2 && (c == '"' || c >= '0' && c <= '9') && !strings.HasPrefix(l, f.header) && !strings.HasPrefix(l, `"Kernel Name"`) {
				f.rows = append(f.rows, i)
			}
		}
		if f.hdr < 0 || len(f.rows) < 3 {
			t.Fatalf("%s: header %d, %d rows", f.path, f.hdr, len(f.rows))
		}
		out = append(out, &f)
	}
	return out
}

// gunzip returns b, decompressed where it is gzip.
func gunzip(t *testing.T, b []byte) []byte {
	if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = io.ReadAll(zr); err != nil {
		t.Fatal(err)
	}
	return b
}

func join(lines []string) string { return strings.Join(lines, "") }

// with returns the fixture's lines with line i replaced by repl (which may
// hold several lines or none).
func (f *fixture) with(i int, repl string) string {
	return join(f.lines[:i]) + repl + join(f.lines[i+1:])
}

func (f *fixture) mid() int   { return f.rows[len(f.rows)/2] }
func (f *fixture) first() int { return f.rows[0] }
func (f *fixture) last() int  { return f.rows[len(f.rows)-1] }

// fieldEnds are the byte offsets of the commas that separate the fields
// of line (outside quotes).
func fieldEnds(line string) []int {
	var out []int
	q := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			q = !q
		case ',':
			if !q {
				out = append(out, i)
			}
		}
	}
	return out
}

// Oracles of a mutated export.
const (
	refused       = "refused"         // exit 2, naming in.csv:LINE
	same          = "same"            // exit 0, reading as the reference
	sameOrRefused = "same or refused" // either
	anyOutcome    = "any"             // exit 0 or 2; the generic checks only
)

// intact stands for the fixture itself as a reference.
const intact = "\x00intact"

// inputCase is analyze --format json of one mutated export, in.csv,
// against the oracle; ref is the intact export it stands for ("" for the
// fixture itself).
func inputCase(cat, name string, f *fixture, data []byte, oracle string, ref string) *tcase {
	if ref == intact {
		ref = f.text
	}
	c := &tcase{cat: cat, name: f.name + ": " + name,
		prep: func(e *env) []string {
			e.write("in.csv", data)
			e.write("ref.csv", []byte(ref))
			return []string{"analyze", "--format", "json", "--launches", "in.csv"}
		},
		fileLine: "in.csv",
	}
	refArgs := func(e *env) []string { return []string{"analyze", "--format", "json", "--launches", "ref.csv"} }
	switch oracle {
	case refused:
		c.codes = "2"
	case same:
		c.codes, c.same = "0", refArgs
		c.fileLine = ""
	case sameOrRefused:
		c.codes, c.same, c.sameOrRefused = "02", refArgs, true
	case anyOutcome:
		c.codes = "02"
		c.fileLine = ""
	}
	return c
}

// ingestCase stores the mutated export into a database that holds a run
// already: a refusal must leave it unchanged, and ingest must agree with
// analyze on whether the export is read.
func ingestCase(cat, name string, f *fixture, data []byte, base []byte) *tcase {
	return &tcase{cat: cat, name: f.name + ": ingest " + name, codes: "02", dbKeep: true,
		prep: func(e *env) []string {
			e.write("in.csv", data)
			e.write("db", base)
			return []string{"ingest", "--db", "db", "in.csv"}
		},
		check: func(e *env, r *result) string {
			// The exports ingest was given (after "ingest --db db"),
			// in.csv and any other file of its capture.
			a := runProfan(e.dir, append([]string{"analyze", "--format", "json", "--launches"}, r.args[3:]...), nil)
			if (a.code == 0) != (r.code == 0) {
				return fmt.Sprintf("ingest exits %d, analyze %d on the same export", r.code, a.code)
			}
			return ""
		},
	}
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func utf16Of(s string, order binary.AppendByteOrder, bom bool) []byte {
	var out []byte
	if bom {
		out = order.AppendUint16(out, 0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		out = order.AppendUint16(out, u)
	}
	return out
}

// structureCases are the systematic mutations of each fixture's CSV
// structure: cuts at every class of position, line and field edits,
// quotes and encodings.
func structureCases(fs []*fixture) []*tcase {
	var cs []*tcase
	for _, f := range fs {
		cat := "CSV cuts"
		hl := f.lines[f.hdr]
		cs = append(cs,
			inputCase(cat, "cut inside the header", f, []byte(join(f.lines[:f.hdr])+hl[:len(hl)/2]), refused, intact),
			inputCase(cat, "cut after the header", f, []byte(join(f.lines[:f.hdr+1])), refused, intact),
		)
		for _, at := range []struct {
			which string
			i     int
		}{{"first row", f.first()}, {"middle row", f.mid()}, {"last row", f.last()}} {
			row := strings.TrimRight(f.lines[at.i], "\n")
			ends := fieldEnds(row)
			before := join(f.lines[:at.i])
			after := join(f.lines[at.i+1:])
			k := len(ends) / 2
			cut := func(n int) string { return row[:n] }
			// Inside a field: the middle of field k.
			fStart := 0
			if k > 0 {
				fStart = ends[k-1] + 1
			}
			inField := fStart + (ends[k]-fStart)/2 + 1
			cs = append(cs,
				inputCase(cat, at.which+" cut inside a field, at the end", f, []byte(before+cut(inField)), refused, before),
				inputCase(cat, at.which+" cut after a field, at the end", f, []byte(before+cut(ends[k])), refused, before),
				inputCase(cat, at.which+" cut after a comma, at the end", f, []byte(before+cut(ends[k]+1)), refused, before),
				inputCase(cat, at.which+" cut one byte short, at the end", f, []byte(before+cut(len(row)-1)), refused, before),
				inputCase(cat, at.which+" whole, without its line end, at the end", f, []byte(before+row), sameOrRefused, before+row+"\n"),
				inputCase(cat, at.which+" cut inside a field, then the next lines", f, []byte(before+cut(inField)+"\n"+after), refused, intact),
				inputCase(cat, at.which+" cut after a field, then the next lines", f, []byte(before+cut(ends[k])+"\n"+after), refused, intact),
				inputCase(cat, at.which+" cut, garbage and an open quote, then the next lines", f, []byte(before+cut(inField)+`make garbage,"x`+"\n"+after), refused, intact),
				inputCase(cat, at.which+" cut at a field, a garbage field, then the next lines", f, []byte(before+cut(ends[k])+`,"make garbage"`+"\n"+after), refused, intact),
			)
			if len(ends) > 3 {
				// The row's last fields lost: all that is left is whole.
				cs = append(cs, inputCase(cat, at.which+" without its last two fields", f, []byte(before+row[:ends[len(ends)-2]]+"\n"+after), refused, intact))
			}
		}

		cat = "CSV lines"
		m := f.mid()
		// nsys stats writes its tables whole from a finished report: text
		// among their rows is a damaged row, not program output.
		amongRows := same
		if strings.HasPrefix(f.name, "nsys") {
			amongRows = refused
		}
		cs = append(cs,
			inputCase(cat, "header repeated", f, []byte(f.with(f.hdr, hl+hl)), sameOrRefused, intact),
			inputCase(cat, "header deleted", f, []byte(f.with(f.hdr, "")), refused, intact),
			inputCase(cat, "first row twice", f, []byte(f.with(f.first(), f.lines[f.first()]+f.lines[f.first()])), sameOrRefused, intact),
			inputCase(cat, "middle row twice", f, []byte(f.with(m, f.lines[m]+f.lines[m])), sameOrRefused, intact),
			inputCase(cat, "last row twice", f, []byte(f.with(f.last(), f.lines[f.last()]+f.lines[f.last()])), sameOrRefused, intact),
			inputCase(cat, "middle row deleted (a valid export)", f, []byte(f.with(m, "")), anyOutcome, intact),
			inputCase(cat, "middle row and the next swapped", f, []byte(join(f.lines[:m])+f.lines[m+1]+f.lines[m]+join(f.lines[m+2:])), sameOrRefused, intact),
			inputCase(cat, "first row before the header", f, []byte(join(f.lines[:f.hdr])+f.lines[f.first()]+join(f.lines[f.hdr:])), sameOrRefused, intact),
			inputCase(cat, "middle row joined with the next", f, []byte(f.with(m, strings.TrimRight(f.lines[m], "\n"))), refused, intact),
			inputCase(cat, "middle row split at a comma", f, []byte(f.with(m, splitAt(f.lines[m]))), refused, intact),
			inputCase(cat, "a blank line among the rows", f, []byte(f.with(m, f.lines[m]+"\n")), same, intact),
			inputCase(cat, "a profiler message among the rows", f, []byte(f.with(m, f.lines[m]+"==PROF== Disconnected from process 1\n")), same, intact),
			inputCase(cat, "program output without commas among the rows", f, []byte(f.with(m, f.lines[m]+"step 3 done\n")), amongRows, intact),
			inputCase(cat, "program output with commas among the rows", f, []byte(f.with(m, f.lines[m]+"loss=1.5, lr=0.1, step=3\n")), sameOrRefused, intact),
			inputCase(cat, "a row of another width among the rows", f, []byte(f.with(m, f.lines[m]+`"1","2","3"`+"\n")), refused, intact),
			inputCase(cat, "the export twice in one file", f, []byte(f.text+f.text), sameOrRefused, intact),
			inputCase(cat, "trailing blank lines", f, []byte(f.text+"\n\n\n"), same, intact),
			inputCase(cat, "trailing spaces on every line", f, []byte(strings.ReplaceAll(f.text, "\n", "  \n")), sameOrRefused, intact),
		)

		cat = "CSV fields"
		row := strings.TrimRight(f.lines[m], "\n")
		ends := fieldEnds(row)
		k := len(ends) / 2
		fStart := ends[k-1] + 1
		field := row[fStart:ends[k]]
		cs = append(cs,
			inputCase(cat, "a field deleted", f, []byte(f.with(m, row[:fStart]+row[ends[k]+1:]+"\n")), refused, intact),
			inputCase(cat, "a field doubled", f, []byte(f.with(m, row[:ends[k]]+","+field+row[ends[k]:]+"\n")), refused, intact),
			inputCase(cat, "an empty field inserted", f, []byte(f.with(m, row[:ends[k]]+","+row[ends[k]:]+"\n")), refused, intact),
			inputCase(cat, "a comma appended", f, []byte(f.with(m, row+",\n")), refused, intact),
			inputCase(cat, "two fields swapped", f, []byte(f.with(m, row[:ends[k-2]+1]+field+","+row[ends[k-2]+1:ends[k-1]]+row[ends[k]:]+"\n")), anyOutcome, intact),
			inputCase(cat, "the header's fields swapped", f, []byte(f.with(f.hdr, swapFirstTwo(hl))), anyOutcome, intact),
		)

		cat = "CSV quotes"
		if strings.Contains(row, `"`) {
			q := strings.Index(row, `"`)
			cq := strings.Index(row[q+1:], `"`) + q + 1
			cs = append(cs,
				inputCase(cat, "an opening quote removed", f, []byte(f.with(m, row[:q]+row[q+1:]+"\n")), sameOrRefused, intact),
				inputCase(cat, "a closing quote removed", f, []byte(f.with(m, row[:cq]+row[cq+1:]+"\n")), refused, intact),
				inputCase(cat, "a quote inside a quoted field", f, []byte(f.with(m, row[:cq]+`x"y`+row[cq:]+"\n")), sameOrRefused, intact),

				inputCase(cat, "an open quote at the end of the file", f, []byte(f.text+`"`), refused, intact),
			)
		}
		if strings.HasSuffix(row, `"`) {
			cs = append(cs, inputCase(cat, "the last quote removed", f, []byte(f.with(m, strings.TrimSuffix(row, `"`)+"\n")), refused, intact))
		}
		cs = append(cs,
			inputCase(cat, "a doubled quote in a field", f, []byte(f.with(m, row[:fStart]+`"a""b"`+row[ends[k]:]+"\n")), anyOutcome, intact),
			inputCase(cat, "a quoted field with a comma", f, []byte(f.with(m, row[:fStart]+`"a,b"`+row[ends[k]:]+"\n")), anyOutcome, intact),
		)

		cat = "Encodings"
		crlf := strings.ReplaceAll(f.text, "\n", "\r\n")
		cs = append(cs,
			inputCase(cat, "CRLF", f, []byte(crlf), same, intact),
			inputCase(cat, "UTF-8 BOM", f, []byte("\xEF\xBB\xBF"+f.text), same, intact),
			inputCase(cat, "BOM and CRLF", f, []byte("\xEF\xBB\xBF"+crlf), same, intact),
			inputCase(cat, "UTF-16LE", f, utf16Of(f.text, binary.LittleEndian, true), same, intact),
			inputCase(cat, "UTF-16BE", f, utf16Of(f.text, binary.BigEndian, true), same, intact),
			inputCase(cat, "UTF-16LE with CRLF", f, utf16Of(crlf, binary.LittleEndian, true), same, intact),
			inputCase(cat, "gzip", f, gz([]byte(f.text)), same, intact),
			inputCase(cat, "gzip of CRLF", f, gz([]byte(crlf)), same, intact),
			inputCase(cat, "gzip of UTF-16", f, gz(utf16Of(f.text, binary.LittleEndian, true)), same, intact),
			inputCase(cat, "gzip twice", f, gz(gz([]byte(f.text))), sameOrRefused, intact),
			inputCase(cat, "mixed CRLF and LF", f, []byte(join(f.lines[:m])+strings.ReplaceAll(join(f.lines[m:]), "\n", "\r\n")), same, intact),
			inputCase(cat, "gzip cut short", f, func() []byte { g := gz([]byte(f.text)); return g[:len(g)*2/3] }(), refused, intact),
			inputCase(cat, "gzip with garbage after it", f, append(gz([]byte(f.text)), "garbage"...), sameOrRefused, intact),
			inputCase(cat, "gzip with a flipped byte", f, func() []byte { g := gz([]byte(f.text)); g[len(g)/2] ^= 0x55; return g }(), refused, intact),
			inputCase(cat, "UTF-16 with an odd byte at the end", f, append(utf16Of(f.text, binary.LittleEndian, true), 'x'), refused, intact),
			inputCase(cat, "UTF-16 without its BOM", f, utf16Of(f.text, binary.LittleEndian, false), refused, intact),
			inputCase(cat, "a Latin-1 byte in a row", f, []byte(f.with(m, row[:fStart+1]+"\xe9"+row[fStart+1:]+"\n")), refused, intact),
			inputCase(cat, "a NUL byte in a row", f, []byte(f.with(m, row[:fStart+1]+"\x00"+row[fStart+1:]+"\n")), refused, intact),
			inputCase(cat, "CR line ends only", f, []byte(strings.ReplaceAll(f.text, "\n", "\r")), refused, intact),
			inputCase(cat, "an escape sequence in a row", f, []byte(f.with(m, row[:fStart+1]+"\x1b[2J\x1b]0;pwned\x07"+row[fStart+1:]+"\n")), anyOutcome, intact),
		)
	}
	return cs
}

func splitAt(line string) string {
	ends := fieldEnds(line)
	k := ends[len(ends)/2]
	return line[:k] + "\n" + line[k+1:]
}

func swapFirstTwo(line string) string {
	ends := fieldEnds(line)
	a, b := line[:ends[0]], line[ends[0]+1:ends[1]]
	return b + "," + a + line[ends[1]:]
}

// randomCases are seeded random mutations of the fixtures, each with the
// oracle its kind of damage calls for.
func randomCases(fs []*fixture, n int, base []byte) []*tcase {
	rng := rand.New(rand.NewPCG(23, *seed))
	var cs []*tcase
	for i := range n {
		f := fs[rng.IntN(len(fs))]
		li := f.rows[rng.IntN(len(f.rows))]
		row := strings.TrimRight(f.lines[li], "\n")
		before, after := join(f.lines[:li]), join(f.lines[li+1:])
		ends := fieldEnds(row)
		var data []byte
		oracle, ref, what := "", intact, ""
		switch kind := rng.IntN(10); kind {
		case 0: // cut at a random byte of a row, the rest lost
			// At byte 0 the cut is at a line end: refused where the
			// export's shape shows it (a summary's shares no longer sum
			// to 100%), else read as the export up to it.
			p := rng.IntN(len(row))
			data, oracle, ref, what = []byte(before+row[:p]), sameOrRefused, before, fmt.Sprintf("cut at byte %d of line %d", p, li+1)
		case 1: // a span of a row deleted, across at least one comma
			if len(ends) < 2 {
				continue
			}
			a := rng.IntN(ends[len(ends)-1])
			j := 0
			for j < len(ends) && ends[j] < a {
				j++
			}
			b := ends[j] + 1 + rng.IntN(len(row)-ends[j]-1+1)
			b = min(b, len(row))
			data, oracle, what = []byte(before+row[:a]+row[b:]+"\n"+after), refused, fmt.Sprintf("bytes %d-%d of line %d deleted", a, b, li+1)
		case 2: // a NUL or a byte that is no UTF-8
			p := rng.IntN(len(row) + 1)
			b := []string{"\x00", "\xff", "\xc3"}[rng.IntN(3)]
			data, oracle, what = []byte(before+row[:p]+b+row[p:]+"\n"+after), refused, fmt.Sprintf("%q at byte %d of line %d", b, p, li+1)
		case 3: // a line doubled
			data, oracle, what = []byte(before+row+"\n"+row+"\n"+after), sameOrRefused, fmt.Sprintf("line %d doubled", li+1)
		case 4: // two adjacent lines swapped
			if li+1 >= len(f.lines) {
				continue
			}
			data, oracle, what = []byte(before+f.lines[li+1]+f.lines[li]+join(f.lines[li+2:])), sameOrRefused, fmt.Sprintf("lines %d and %d swapped", li+1, li+2)
		case 5: // a line that is no row inserted
			ins := []string{"\n", "==PROF== Disconnected from process 7\n", "   note: indented\n", "==WARNING== something\n"}[rng.IntN(4)]
			data, oracle, what = []byte(before+f.lines[li]+ins+after), same, fmt.Sprintf("%q after line %d", ins, li+1)
			if strings.HasPrefix(f.name, "nsys") && strings.HasPrefix(ins, " ") && li != f.last() {
				oracle = refused // text among an nsys table's rows (see structureCases)
			}
		case 6: // a field inserted or deleted
			if len(ends) < 2 {
				continue
			}
			j := rng.IntN(len(ends))
			if rng.IntN(2) == 0 {
				data, what = []byte(before+row[:ends[j]]+`,"1"`+row[ends[j]:]+"\n"+after), fmt.Sprintf("a field inserted in line %d", li+1)
			} else {
				s := 0
				if j > 0 {
					s = ends[j-1] + 1
				}
				data, what = []byte(before+row[:s]+row[ends[j]+1:]+"\n"+after), fmt.Sprintf("field %d of line %d deleted", j+1, li+1)
			}
			oracle = refused
		case 7: // an encoding
			enc := rng.IntN(4)
			data = [][]byte{[]byte(strings.ReplaceAll(f.text, "\n", "\r\n")), gz([]byte(f.text)), utf16Of(f.text, binary.LittleEndian, true), []byte("\xEF\xBB\xBF" + f.text)}[enc]
			oracle, what = same, []string{"CRLF", "gzip", "UTF-16", "BOM"}[enc]
		case 8: // a digit changed: a plausible export; generic checks
			p := rng.IntN(len(row))
			b := []byte(row)
			if b[p] >= '0' && b[p] <= '9' {
				b[p] = '0' + (b[p]-'0'+1)%10
			}
			data, oracle, what = []byte(before+string(b)+"\n"+after), anyOutcome, fmt.Sprintf("a digit of line %d changed", li+1)
		case 9: // cut at a random byte of the file
			p := rng.IntN(len(f.text))
			whole := strings.LastIndexByte(f.text[:p], '\n') + 1
			ref = f.text[:whole]
			if p < len(f.text) && f.text[p] == '\n' {
				ref = f.text[:p+1]
			}
			data, oracle, what = []byte(f.text[:p]), sameOrRefused, fmt.Sprintf("file cut at byte %d", p)
		}
		name := fmt.Sprintf("#%d %s", i, what)
		if i%3 == 2 && oracle != same && f.name != "ncu-source" { // ingest stores a source page with its details page only
			cs = append(cs, ingestCase("Random mutations (ingest)", name, f, data, base))
			continue
		}
		cs = append(cs, inputCase("Random mutations", name, f, data, oracle, ref))
	}
	return cs
}
