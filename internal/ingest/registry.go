package ingest

import "github.com/profan-dev/profan"

// The registry: the importers of CSV tables and the document formats,
// tried in order on each header or document, and the layout each importer
// declares for its tables.

// importer reads one kind of table. Importers are chosen by their header
// (Match), never by the file's name.
type importer interface {
	// Name is the format name users pass to --format, e.g. "ncu-details".
	Name() string
	// Tool is profan.ToolNCU, profan.ToolNvprof or profan.ToolNsys.
	Tool() string
	// Match reports whether a CSV header line starts a table of this kind.
	Match(header []string) bool
	// Parse reads the table's rows from t and emits what they hold.
	Parse(t *table) error
}

// importers is the registry: the order in which headers are tried.
// Adding a format is one file and one line here.
var importers = []importer{
	ncuDetails{},
	ncuRaw{},
	ncuSummary{},
	ncuSource{},
	nvprofMetrics{},
	nvprofEvents{},
	nvprofTrace{},
	nvprofSummary{},
	nvprofUMSummary{},
	nvprofWide{},
	nsysKernSum{},
	nsysGPUTrace{},
	nsysAPISum{},
	nsysAPITrace{},
}

// document reads an export that is one document (JSON), not CSV tables.
// Documents are chosen by their content (Sniff, on the first bytes of the
// decoded text, leading white space removed), never by the file's name.
type document interface {
	Name() string
	Tool() string
	Sniff(head []byte) bool
	read(s *stream, in *File) error
}

// documents is the registry of document formats.
var documents = []document{
	torchTrace{},
}

func (torchTrace) read(s *stream, in *File) error { return readTorch(s, in) }

// documentByName returns the document format called name.
func documentByName(name string) (document, bool) {
	for _, d := range documents {
		if d.Name() == name {
			return d, true
		}
	}
	return nil, false
}

// importerByName returns the importer called name (the CSV formats; a
// document format is documentByName's).
func importerByName(name string) (importer, bool) {
	for _, imp := range importers {
		if imp.Name() == name {
			return imp, true
		}
	}
	return nil, false
}

// names lists the registered format names.
func names() []string {
	var out []string
	for _, imp := range importers {
		out = append(out, imp.Name())
	}
	for _, d := range documents {
		out = append(out, d.Name())
	}
	return out
}

// layout is what the reader needs to know of an importer's tables beyond
// their header: each importer declares its own (layouter); the zero
// layout is a table of one header and its rows, each as wide as it or
// narrower, none the same as the one before it.
type layout struct {
	// blocks: the table is made of blocks that each start with a line
	// Match accepts (ncu's source page): its rows are split leniently and
	// may be wider than the header, and no other report's table is looked
	// for among them.
	blocks bool
	// subTables: the sub-tables of ncu --print-details all may sit among
	// the rows (a narrower header, then rows as wide as it), skipped.
	subTables bool
	// repeatsRows: a row may be the same as the one before it (a details
	// page repeats rows of body items; a source page, lines of source).
	repeatsRows bool
	// traceRows: a row repeats the middle of the row before it, all but
	// its first two fields and its last (a GPU trace's launch: its start
	// and duration differ, and its name's correlation ID).
	traceRows bool
	// whole: the table is written whole, from a finished report, so that
	// a line of text among its rows is a damaged row, not program output.
	// Every nsys table is (nsys stats), so the tool sets it.
	whole bool
}

// layouter is an importer whose tables are not of the zero layout.
type layouter interface{ layout() layout }

// layoutOf returns the layout imp declares.
func layoutOf(imp importer) layout {
	var l layout
	if d, ok := imp.(layouter); ok {
		l = d.layout()
	}
	l.whole = l.whole || imp.Tool() == profan.ToolNsys
	return l
}
