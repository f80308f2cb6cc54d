package adversarial

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// traceCases damage the exports that are no CSV table of one file: a
// PyTorch trace (one JSON document) and an nsys API trace and GPU trace
// of one report given as the two files nsys stats --output writes.
func traceCases(t *testing.T, fs []*fixture, base []byte) []*tcase {
	var cs []*tcase
	cs = append(cs, torchCases(t, 80, base)...)
	cs = append(cs, splitTraceCases(fx(fs, "nsys-api-trace"), base)...)
	return cs
}

// torchCases are a PyTorch trace damaged as a cut, a lost write or an
// editor damage it: refused at in.csv's line (the reader finds a trace by
// content, whatever its name), or read as the intact trace; one in three
// of the random ones stored by ingest into a database holding a run.
func torchCases(t *testing.T, n int, base []byte) []*tcase {
	const cat = "PyTorch trace"
	b, err := os.ReadFile(filepath.Join(repo, "fixtures/timeline/copy_pinned.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{name: "torch-trace", text: string(gunzip(t, b))}
	f.lines = strings.SplitAfter(f.text, "\n")
	text := f.text
	end := len(strings.TrimRight(text, " \n"))
	crlf := strings.ReplaceAll(text, "\n", "\r\n")
	cs := []*tcase{
		inputCase(cat, "CRLF", f, []byte(crlf), same, intact),
		inputCase(cat, "UTF-8 BOM", f, []byte("\xEF\xBB\xBF"+text), same, intact),
		inputCase(cat, "UTF-16LE", f, utf16Of(text, binary.LittleEndian, true), same, intact),
		inputCase(cat, "gzip", f, gz([]byte(text)), same, intact),
		inputCase(cat, "gzip of CRLF", f, gz([]byte(crlf)), same, intact),
		inputCase(cat, "gzip cut short", f, func() []byte { g := gz([]byte(text)); return g[:len(g)*2/3] }(), refused, intact),
		inputCase(cat, "trailing blank lines", f, []byte(text+"\n\n\n"), same, intact),
		inputCase(cat, "the trace twice in one file", f, []byte(text+text), refused, intact),
		inputCase(cat, "cut at its last byte", f, []byte(text[:end-1]), refused, intact),
		inputCase(cat, "cut before its last event", f, []byte(text[:strings.LastIndex(text, "\n  {")]), refused, intact),
		inputCase(cat, "CR line ends only", f, []byte(strings.ReplaceAll(text, "\n", "\r")), same, intact),
	}
	rng := rand.New(rand.NewPCG(29, *seed))
	for i := range n {
		li := 1 + rng.IntN(len(f.lines)-2)
		line := strings.TrimRight(f.lines[li], "\n")
		before, after := join(f.lines[:li]), join(f.lines[li+1:])
		var data []byte
		oracle, what := refused, ""
		switch rng.IntN(6) {
		case 0: // cut at a random byte before the document ends
			p := rng.IntN(end)
			data, what = []byte(text[:p]), fmt.Sprintf("cut at byte %d", p)
		case 1: // a NUL or a byte that is no UTF-8
			p := rng.IntN(len(line) + 1)
			b := []string{"\x00", "\xff", "\xc3"}[rng.IntN(3)]
			data, what = []byte(before+line[:p]+b+line[p:]+"\n"+after), fmt.Sprintf("%q at byte %d of line %d", b, p, li+1)
		case 2: // a line doubled: a key given twice, or a value or event repeated
			data, oracle, what = []byte(before+line+"\n"+line+"\n"+after), sameOrRefused, fmt.Sprintf("line %d doubled", li+1)
		case 3: // two adjacent lines swapped
			data, oracle, what = []byte(before+f.lines[li+1]+f.lines[li]+join(f.lines[li+2:])), sameOrRefused, fmt.Sprintf("lines %d and %d swapped", li+1, li+2)
		case 4: // a line deleted
			data, oracle, what = []byte(before+after), sameOrRefused, fmt.Sprintf("line %d deleted", li+1)
			if strings.Trim(line, " ") == "" {
				oracle = same
			}
		case 5: // a digit changed: a plausible trace; generic checks
			p := rng.IntN(len(line) + 1)
			bs := []byte(line)
			if p < len(bs) && bs[p] >= '0' && bs[p] <= '9' {
				bs[p] = '0' + (bs[p]-'0'+1)%10
			}
			data, oracle, what = []byte(before+string(bs)+"\n"+after), anyOutcome, fmt.Sprintf("a digit of line %d changed", li+1)
		}
		name := fmt.Sprintf("#%d %s", i, what)
		if i%3 == 2 && oracle != same {
			cs = append(cs, ingestCase(cat+" (ingest)", name, f, data, base))
			continue
		}
		cs = append(cs, inputCase(cat, name, f, data, oracle, intact))
	}
	return cs
}

// splitTraceCases are the systematic and random mutations of the API
// trace and of the GPU trace of one report, each given with the other
// intact as its own file (in both orders): refused naming one of the two
// files and a line, or read as the intact pair; one in three of the
// random ones stored by ingest into a database holding a run.
func splitTraceCases(both *fixture, base []byte) []*tcase {
	const cat = "Split API and GPU traces"
	gpuAt := 0
	for i, l := range both.lines {
		if strings.HasPrefix(l, "Processing [") && strings.Contains(l, "gputrace") {
			gpuAt = i
		}
	}
	api := partFixture("nsys-api-trace-file", both.lines[:gpuAt], `Start (ns),Duration (ns),Name`)
	gpu := partFixture("nsys-gpu-trace-file", both.lines[gpuAt:], `Start (ns),Duration (ns),CorrId`)
	var cs []*tcase
	for _, p := range []struct {
		f, other   *fixture
		otherFirst bool
	}{{api, gpu, false}, {gpu, api, true}} {
		for _, c := range append(structureCases([]*fixture{p.f}), randomCases([]*fixture{p.f}, 40, base)...) {
			cs = append(cs, pairCase(cat, c, []byte(p.other.text), p.otherFirst))
		}
	}
	return cs
}

func partFixture(name string, lines []string, header string) *fixture {
	f := &fixture{name: name, header: header, text: join(lines), lines: slices.Clone(lines), hdr: -1}
	for i, l := range f.lines {
		switch {
		case f.hdr < 0 && strings.HasPrefix(l, header):
			f.hdr = i
		case f.hdr >= 0 && l != "" && l[0] >= '0' && l[0] <= '9' && strings.Count(l, ",") >= 2:
			f.rows = append(f.rows, i)
		}
	}
	return f
}

// pairCase gives c's export, in.csv, with the other file of its report,
// pair.in.csv: an error may name either file (a lost launch call is
// found at its kernel's line), and a read is held to the intact pair.
func pairCase(cat string, c *tcase, other []byte, otherFirst bool) *tcase {
	withOther := func(args []string, input string) []string {
		out := slices.Clone(args)
		i := slices.Index(out, input)
		if otherFirst {
			return slices.Insert(out, i, "pair.in.csv")
		}
		return slices.Insert(out, i+1, "pair.in.csv")
	}
	p := *c
	p.cat, p.name = cat, c.cat+": "+c.name
	if otherFirst {
		p.name += " (GPU trace first)"
	}
	p.prep = func(e *env) []string {
		e.write("pair.in.csv", other)
		return withOther(c.prep(e), "in.csv")
	}
	if c.same != nil {
		p.same = func(e *env) []string { return withOther(c.same(e), "ref.csv") }
	}
	return &p
}
