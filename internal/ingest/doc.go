// Package ingest reads the exports of the profilers into profan's model
// (profan.Run, profan.Kernel): Nsight Compute's CSV pages (details, raw,
// summary, source), nvprof's CSV tables (metrics, events, GPU trace,
// summaries), Nsight Systems' stats reports and PyTorch's Kineto trace
// (JSON). It owns every byte of the input and nothing after it: no
// analysis, no database (internal/ingestdb joins the two).
//
// An export is sniffed by its content, never its name: a CSV table by its
// header (each importer's Match, tried in the order of the importers
// registry), a document by its first bytes (documents). Adding a format
// is one file implementing importer (or document) and one registry line;
// see CONTRIBUTING.md.
//
// Reading streams. A File is opened once (gzip and UTF-16 decoded, its
// digest computed beside the read); a stream walks its lines, splits it
// into tables and hands each to its importer as a table, read as
// x/perf's benchfmt.Reader is (Scan, Row, Err). What a table allows
// beyond a header and its rows (blocks, sub-tables, repeated rows) is a
// layout its importer declares, and what an importer keeps over the
// whole export (nvprof's metric units, nsys's host calls) a type in its
// own file (formatstate.go: stateOf). Kernels go to the caller's Sink as they
// are read, so a run of millions of launches is never held whole; the
// PyTorch trace has its own streaming JSON lexer (jsonlex.go).
//
// Bad input is refused, never guessed at: every problem is an error that
// names the file and line (or byte offset) and what was expected, the
// resources an input may take are bounded (kernel names, metrics per
// kernel, host events: profan.MaxHostEvents), and no input panics (the fuzz targets
// and the hostile tests hold it). docs/input-contract.md is the promise.
//
// Several files may make one capture: the pages of one ncu report given
// together (Captures), and source pages attached to the kernels of the
// others (SourcePages).
package ingest
