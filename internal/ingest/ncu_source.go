package ingest

import (
	"crypto/sha256"
	"slices"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/units"
)

// ncuSource reads ncu's source page (--page source --csv). Each profiled
// kernel is a block: with --print-source sass, a `"Kernel Name","<name>"`
// line, then a per-instruction table; with cuda,sass, `"File Path"` and
// `"Function Name"` lines, then a table whose CUDA-line rows ("Line No" set)
// are followed by the SASS rows of that line (ncu lists some of them twice,
// and "..." rows mark gaps). Blocks come in the report's order, so their
// ordinal is the details page's ID.
type ncuSource struct{}

func (ncuSource) Name() string { return "ncu-source" }
func (ncuSource) Tool() string { return profan.ToolNCU }

func (ncuSource) layout() layout { return layout{blocks: true, repeatsRows: true} }

func (ncuSource) Match(h []string) bool {
	return len(h) >= 2 && len(h) <= 3 && (h[0] == "Kernel Name" || h[0] == "File Path") && h[1] != ""
}

// sourceCounters are the instruction counters profan keeps from the page;
// of the warp-stall sampling columns, the samples, those at a CTA barrier
// and those waiting on a global or local load (the page's stall_barrier
// and stall_long_sb: what barrier-stalls reads where the details page
// names no barrier stall) alone.
var sourceCounters = map[string]string{
	"Instructions Executed":                      "inst_executed",
	"Thread Instructions Executed":               "thread_inst_executed",
	"Predicated-On Thread Instructions Executed": "thread_inst_executed_pred_on",
	"Access Size":                                "access_size_bits",
	"L1 Tag Requests Global":                     "l1_tag_requests_global",
	"L1 Conflicts Shared N-Way":                  "l1_conflicts_shared_nway",
	"L1 Wavefronts Shared Excessive":             "memory_l1_wavefronts_shared_excessive",
	"L1 Wavefronts Shared":                       "memory_l1_wavefronts_shared",
	"L1 Wavefronts Shared Ideal":                 "memory_l1_wavefronts_shared_ideal",
	"L2 Theoretical Sectors Global Excessive":    "memory_l2_theoretical_sectors_global_excessive",
	"L2 Theoretical Sectors Global":              "memory_l2_theoretical_sectors_global",
	"L2 Theoretical Sectors Global Ideal":        "memory_l2_theoretical_sectors_global_ideal",
	"L2 Theoretical Sectors Local":               "memory_l2_theoretical_sectors_local",
	"Warp Stall Sampling (All Samples)":          "stall_samples",
	"stall_barrier":                              "stall_barrier",
	"stall_long_sb":                              "stall_long_sb",
}

type sourceBlock struct {
	kernel, file string
	header       []string
	cols         map[int]string // column → counter name
	lineCol      int
	addrCol      int
	sassCol      int
	srcCol       int
	spaceCol     int
	opCol        int
	// lastAddr is the address of the block's last instruction row, rows
	// the number of them (sass view).
	lastAddr uint64
	rows     int
}

func (ncuSource) Parse(t *table) error {
	p := &sourceReader{t: t, b: &sourceBlock{}, seen: map[string]bool{}, launches: map[[sha256.Size]byte]string{},
		nameLine: t.Line, kLine: t.Line, padded: true, last: t.Line}
	p.b.start(t.Header)
	for t.Scan() {
		if err := p.row(t.Row()); err != nil {
			return err
		}
	}
	return p.end()
}

// sourceReader is the state of a source page's read.
type sourceReader struct {
	t       *table
	b       *sourceBlock
	k       *profan.Kernel
	files   map[string]bool // files of k's blocks (cuda,sass)
	curLine int
	seen    map[string]bool
	prev    string
	// ncu 2025.3 prints each block of the sass view twice: when the
	// second block repeats the first, every block comes in such a pair.
	sassBlocks int
	doubled    bool
	blockRows  int // rows of the current block, to uncount a dropped one
	// launches maps the digest of each launch's block that carries warp
	// stall samples to its launch number. Sampling is statistical: two
	// launches never draw the same samples on every instruction, so a
	// sampled block that repeats an earlier launch's row for row is the
	// page joined to itself (`cat a.csv a.csv`), not a launch.
	launches        map[[sha256.Size]byte]string
	nameLine, kLine int // the lines naming the block read and k's
	// The blocks emitted, and whether each ended at its function's end
	// (endsPadded): what a cut last block is told by.
	blocks int
	padded bool
	last   int // the line of the last source row
}

// row reads one row of the page: a block's name, its column header, or
// one of its rows.
func (p *sourceReader) row(r row) error {
	t, b := p.t, p.b
	first := r.String(0)
	p.blockRows++
	switch {
	case first == "Kernel Name" || first == "File Path":
		return p.blockName(r, first)
	case first == "Function Name" && b.header == nil:
		b.kernel = r.String(1)
		return nil
	case b.header == nil:
		return p.blockHeader(r)
	}
	p.last = r.Line
	if p.k == nil {
		return t.Errorf(r.Line, "source row before the block's header")
	}
	if r.Len() < len(b.header) {
		return t.Errorf(r.Line, "row has %d fields, the header has %d (truncated row?)", r.Len(), len(b.header))
	}
	if b.addrCol >= 0 && r.String(b.addrCol) == b.header[b.addrCol] {
		return t.Errorf(r.Line, "the column header repeated inside a source block (two exports joined, or a damaged page?)")
	}
	// Only a CUDA line's text may hold quotes ncu does not escape, so
	// only a CUDA-line row may be wider than its header: its extra
	// fields are pieces of the text, and the columns after the text are
	// read from the row's end. A wider SASS row is a stray comma or
	// quote that would shift its counters.
	cuda := b.lineCol >= 0 && b.srcCol > b.lineCol && r.String(b.lineCol) != ""
	shift := r.Len() - len(b.header)
	if shift > 0 && !cuda {
		return t.Errorf(r.Line, "row has %d fields, the header has %d (a stray comma or quote?)", r.Len(), len(b.header))
	}
	rec := profan.SourceRecord{File: b.file}
	if b.lineCol >= 0 {
		if ln := r.String(b.lineCol); ln != "" {
			return p.cudaLine(r, rec, ln, shift)
		}
		rec.Line = p.curLine
	}
	return p.instruction(r, rec)
}

// blockName starts a block at its name ("Kernel Name" or "File Path").
// With cuda,sass, a kernel that inlines code from headers has one block
// per file, all of one launch: the launch ends when the function changes
// or a file comes again.
func (p *sourceReader) blockName(r row, first string) error {
	if p.b.header == nil {
		return p.t.Errorf(r.Line, "ncu source block %q has no rows: a block's name is followed by its column header", shorten(p.b.kernel+p.b.file, 60))
	}
	p.b = &sourceBlock{}
	p.b.start([]string{first, r.String(1)})
	if first == "Kernel Name" {
		if err := p.emit(p.last, p.blockRows-1); err != nil {
			return err
		}
		p.blockRows = 1
	}
	p.nameLine = r.Line
	return nil
}

// blockHeader reads a block's column header, which starts its launch,
// or another file of the launch read.
func (p *sourceReader) blockHeader(r row) error {
	t, b := p.t, p.b
	b.setHeader(t, r)
	if b.addrCol < 0 || b.sassCol < 0 {
		// A block starts with its name, then this header: anything
		// else (a row of another block, program output) is out of
		// place.
		return t.Errorf(r.Line, "ncu source block: expected the column header (Address, Source, ...) after the block's name, found %q", shorten(r.String(0), 40))
	}
	if b.kernel == "" {
		return t.Errorf(r.Line, "source block without a kernel name")
	}
	if p.k != nil && b.file != "" && p.k.Name == b.kernel && !p.files[b.file] {
		p.files[b.file] = true // one more file of the same launch
	} else {
		if err := p.emit(p.last, 0); err != nil {
			return err
		}
		p.k = profan.NewKernel()
		p.kLine = p.nameLine
		p.k.Name = t.Intern([]byte(b.kernel))
		p.k.Demangled = t.demangled(p.k.Name, p.nameLine)
		p.files = map[string]bool{b.file: true}
	}
	p.curLine = 0
	p.seen = map[string]bool{}
	return nil
}

// cudaLine reads the row of a CUDA line (numbered ln) of the cuda,sass
// view, shift fields wider than its header.
func (p *sourceReader) cudaLine(r row, rec profan.SourceRecord, ln string, shift int) error {
	b := p.b
	n, err := strconv.Atoi(ln)
	if err != nil {
		return p.t.Errorf(r.Line, "line number %q is not a number", ln)
	}
	p.curLine = n
	rec.Line = n
	text := r.String(b.srcCol)
	for i := 1; i <= shift; i++ {
		text += "," + r.String(b.srcCol+i)
	}
	rec.Source = text
	b.counters(p.t, r, &rec, shift)
	p.k.Source = append(p.k.Source, rec)
	return nil
}

// instruction reads the row of a SASS instruction.
func (p *sourceReader) instruction(r row, rec profan.SourceRecord) error {
	t, b := p.t, p.b
	addr := r.String(b.addrCol)
	if addr == "..." || addr == "" {
		t.Skip(skipSourceGap)
		return nil
	}
	if b.file == "" {
		// The sass view is a disassembly: addresses rise row by row.
		a, err := strconv.ParseUint(strings.TrimPrefix(addr, "0x"), 16, 64)
		if err != nil {
			return t.Errorf(r.Line, "instruction address %q is not a hexadecimal address", shorten(addr, 40))
		}
		if b.rows > 0 && a <= b.lastAddr {
			return t.Errorf(r.Line, "instruction address %s does not follow %#x: rows out of order or repeated (a damaged page?)", addr, b.lastAddr)
		}
		b.lastAddr = a
		b.rows++
	}
	key := strconv.Itoa(rec.Line) + "@" + addr
	if p.seen[key] {
		t.Skip(skipSourceDuplicate)
		return nil // cuda,sass lists some instructions twice
	}
	p.seen[key] = true
	rec.Address = addr
	rec.SASS = strings.TrimSpace(r.String(b.sassCol))
	b.counters(t, r, &rec, 0)
	p.k.Source = append(p.k.Source, rec)
	return nil
}

// end ends the page: its last launch is emitted, unless the page is cut
// short.
func (p *sourceReader) end() error {
	t, k, last := p.t, p.k, p.last
	if t.Err() != nil {
		return t.Err()
	}
	if p.b.header != nil && k != nil && len(k.Source) == 0 {
		return t.Errorf(last, "the page ends after a source block's column header, with no rows (a truncated page?)")
	}
	if p.doubled && p.sassBlocks%2 == 0 && k != nil {
		return t.Errorf(last, "the page ends after the first print of a source block, without its second (a truncated page?)")
	}
	if k != nil && p.blocks > 0 && p.padded && t.AtEnd() && !endsPadded(k) {
		// Every other block ends with the function's last instruction,
		// padded to 128 bytes: this one stops before it.
		return t.Errorf(last, "the last source block (%s) ends before its function does, where every other block ends with the NOP padding to 128 bytes: the page is cut short (still being written?)", shorten(k.Name, 60))
	}
	return p.emit(last, p.blockRows)
}

// emit hands the launch read on, ending at line after rows rows; the
// second print of a sass block is dropped instead.
func (p *sourceReader) emit(line, rows int) error {
	t, k := p.t, p.k
	if k == nil {
		return nil
	}
	// The block's text, for the sass view's pairs and for a sampled
	// block's repeat.
	isSampled := sampled(k)
	var sig string
	if p.b.file == "" || isSampled {
		sig = k.String()
	}
	if p.b.file == "" && p.secondPrint(sig) {
		if sig != p.prev {
			return t.Errorf(line, "ncu source block %d of %q differs from its first print (ncu prints each block of this view twice): a damaged page?", p.sassBlocks, shorten(k.Name, 60))
		}
		p.k = nil
		t.s.acct.Rows -= rows
		t.s.skipN(skipRepeatedBlock, rows)
		return nil
	}
	k.ID = t.Ordinal()
	if isSampled {
		d := sha256.Sum256([]byte(sig))
		if id, ok := p.launches[d]; ok {
			return t.Errorf(p.kLine, "ncu source block of %q repeats launch %s's row for row, its sampled warp stalls included: sampling never repeats across launches (the page joined to itself?)", shorten(k.Name, 60), id)
		}
		p.launches[d] = k.ID
	}
	sumSourceCounters(k)
	k.Line = p.kLine
	p.blocks++
	p.padded = p.padded && endsPadded(k)
	p.k = nil
	return t.Kernel(k, line)
}

// secondPrint reports whether the sass block whose text is sig is the
// second print of a pair: ncu 2025.3 prints each block of the sass view
// twice, and the second must repeat the first (two identical launches
// give four identical blocks); a pair that differs is a damaged page, not
// another launch. The cuda,sass view (with a file) is never doubled.
func (p *sourceReader) secondPrint(sig string) bool {
	n := p.sassBlocks
	p.sassBlocks++
	if n == 1 && sig == p.prev {
		p.doubled = true
	}
	if p.doubled && n%2 == 1 {
		return true
	}
	p.prev = sig
	return false
}

// Source-page skip rules.
const (
	skipRepeatedBlock   = "ncu source block printed twice"
	skipSourceGap       = "ncu source gap row (...)"
	skipSourceDuplicate = "ncu source instruction listed twice under one line"
)

func (b *sourceBlock) start(h []string) {
	if len(h) < 2 {
		return // a one-field line, in a table forced with --format ncu-source
	}
	switch h[0] {
	case "Kernel Name":
		b.kernel = h[1]
	case "File Path":
		b.file = h[1]
	}
}

func (b *sourceBlock) setHeader(t *table, r row) {
	b.header = make([]string, r.Len())
	b.cols = map[int]string{}
	b.lineCol, b.addrCol, b.sassCol, b.srcCol, b.spaceCol, b.opCol = -1, -1, -1, -1, -1, -1
	sources := 0
	for i := 0; i < r.Len(); i++ {
		h := t.Intern(r.Bytes(i))
		b.header[i] = h
		switch h {
		case "Line No":
			b.lineCol = i
		case "Address":
			b.addrCol = i
		case "Source":
			// cuda,sass has two Source columns: CUDA text, then SASS.
			if sources == 0 && b.lineCol >= 0 {
				b.srcCol = i
			} else {
				b.sassCol = i
			}
			sources++
		case "Address Space":
			b.spaceCol = i
		case "Access Operation":
			b.opCol = i
		default:
			if n, ok := sourceCounters[h]; ok {
				b.cols[i] = n
			}
		}
	}
}

// counters reads rec's counters from r. shift is how many fields wider
// than the header r is (a CUDA line whose text held unescaped quotes): the
// columns after the text sit that much further right.
func (b *sourceBlock) counters(t *table, r row, rec *profan.SourceRecord, shift int) {
	at := func(i int) int {
		if i > b.srcCol {
			return i + shift
		}
		return i
	}
	// The values are read first and the record's counters allocated
	// once, as many as it keeps (most of a row's columns are zero and
	// left out): appending one by one grew the slice up to five times a
	// row.
	type value struct {
		name, raw string
		v         float64
	}
	var buf [24]value // more than sourceCounters: append spills past it
	vals := buf[:0]
	for i := 0; i < len(b.header); i++ {
		name, ok := b.cols[i]
		if !ok {
			continue
		}
		raw := r.String(at(i))
		v, ok, _ := units.ParseNumber(raw)
		if !ok || v == 0 {
			continue
		}
		vals = append(vals, value{name, raw, v})
	}
	texts := [...]struct {
		col  int
		name string
		s    string
	}{{col: b.spaceCol, name: "address_space"}, {col: b.opCol, name: "access_operation"}}
	n := len(vals)
	for i := range texts {
		if texts[i].col >= 0 {
			if s := r.String(at(texts[i].col)); s != "" && s != "-" {
				texts[i].s = s
				n++
			}
		}
	}
	if n == 0 {
		return
	}
	rec.Counter = slices.Grow(rec.Counter, n)
	for _, x := range vals {
		m := profan.NewMetric(x.name)
		m.Value, m.Raw, m.Section = x.v, x.raw, "source"
		rec.Counter = append(rec.Counter, m)
	}
	for _, c := range texts {
		if c.s != "" {
			m := profan.NewMetric(c.name)
			m.Text, m.Raw, m.Section = t.Intern([]byte(c.s)), c.s, "source"
			rec.Counter = append(rec.Counter, m)
		}
	}
}

// sampled reports whether any of k's source rows drew a warp stall sample.
func sampled(k *profan.Kernel) bool {
	for _, s := range k.Source {
		for _, c := range s.Counter {
			if c.Name == "stall_samples" && c.Value > 0 {
				return true
			}
		}
	}
	return false
}

// endsPadded reports whether a launch's source records reach its
// function's end: a function's code is padded with NOPs to 128 bytes
// (instructions are 16), so its last instruction is a NOP (or the BRA
// that closes it) at an address 16 bytes short of a multiple of 128.
func endsPadded(k *profan.Kernel) bool {
	var top uint64
	sass, found := "", false
	for _, s := range k.Source {
		a, err := strconv.ParseUint(strings.TrimPrefix(s.Address, "0x"), 16, 64)
		if err == nil && (!found || a > top) {
			top, sass, found = a, s.SASS, true
		}
	}
	return found && (top+16)%128 == 0 && (strings.HasPrefix(sass, "NOP") || strings.HasPrefix(sass, "BRA"))
}

// sumSourceCounters adds kernel-level totals of the memory counters over
// the SASS rows, per global load and store: ncu's own ideal and actual L2
// sectors, which the model's ideal counts are checked against.
func sumSourceCounters(k *profan.Kernel) {
	sums := map[string]float64{}
	// An instruction of inlined code is listed under the call site and
	// under the header's line: count each address once.
	counted := map[string]bool{}
	for _, s := range k.Source {
		if s.Address == "" || counted[s.Address] {
			continue
		}
		counted[s.Address] = true
		var space, op string
		for _, c := range s.Counter {
			switch c.Name {
			case "address_space":
				space = c.Text
			case "access_operation":
				op = c.Text
			}
		}
		suffix := ""
		switch {
		case space == "Global" && globalAtomic(s.SASS):
			suffix = "_atom"
		case space == "Global" && op == "Load":
			suffix = "_ld"
		case space == "Global" && op == "Store":
			suffix = "_st"
		case space == "Shared" && op == "Load":
			suffix = "_ld"
		case space == "Shared" && op == "Store":
			suffix = "_st"
		case space == "Local" && op == "Load":
			suffix = "_ld"
		case space == "Local" && op == "Store":
			suffix = "_st"
		default:
			continue
		}
		for _, c := range s.Counter {
			if strings.HasPrefix(c.Name, "memory_") || c.Name == "inst_executed" || c.Name == "thread_inst_executed_pred_on" {
				sums[strings.ToLower(space)+"/"+c.Name+suffix] += c.Value
			}
		}
	}
	for name, v := range sums {
		m := profan.NewMetric("source:" + name)
		m.Value, m.Section = v, "source"
		k.AddMetric(m)
	}
	// Deterministic order for golden output.
	sortMetrics(k)
}

// globalAtomic reports whether a SASS instruction is a global atomic or
// reduction (RED, ATOM, ATOMG; not the shared ATOMS nor a warp REDUX).
func globalAtomic(sass string) bool {
	f := strings.Fields(sass)
	if len(f) > 0 && strings.HasPrefix(f[0], "@") {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	op := f[0]
	return (strings.HasPrefix(op, "RED") || strings.HasPrefix(op, "ATOM")) && !strings.HasPrefix(op, "REDUX") && !strings.HasPrefix(op, "ATOMS")
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
