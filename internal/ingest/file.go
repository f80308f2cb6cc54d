package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/maphash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
)

// sniffLimit bounds the head of an export read to find its format.
const sniffLimit = 4 << 20

// File is one export, opened once and read in one pass: its format is
// sniffed from the head of the buffered input, which is then replayed to
// the reader, and its digest is computed while it is read. Pipes and
// process substitution (`profan analyze <(cat a.csv b.csv)`) therefore
// work like files.
type File struct {
	src    string
	closer io.Closer
	seeker *os.File // set by OpenSeekable
	cr     *countReader
	h      hash.Hash
	head   *headHash // what the line reader hashed before Read chose the hash
	lr     *lineReader
	err    error // an error met opening the line reader

	sniffed bool
	format  string
	doc     document // see document
	docSeen bool
	used    bool
	spooled string       // the digest of a stream copied by OpenSeekable
	stop    *atomic.Bool // set by StopAside
	// states are what importers keep over the export (formatStates):
	// nsys's host calls of the capture it is read in (see readTraces).
	states formatStates
	// aside is the digest HashAside computes; quick, the check hash of
	// the text parsed that Digest compares with the aside's (see Read).
	aside *asideDigest
	quick *checkHash
	// async hands the text parsed to h on a goroutine (asideHash);
	// Digest waits for it.
	async *asideHash
	// checkOnly marks the read that copies a stream (spool): its kernels
	// are dropped, and the copy is read again.
	checkOnly bool
	// pipe is the file read when it takes read deadlines (see Read).
	pipe deadliner
}

// deadliner is an *os.File: a pipe or FIFO opened by name is in Go's
// poller, and a read deadline ends a read of it that is blocked.
type deadliner interface{ SetReadDeadline(time.Time) error }

// binaryError refuses binary data at line of src with msg; a profiler's
// own report (an .ncu-rep or .nsys-rep file, which profan does not read)
// gets the command that exports its CSV.
func binaryError(src string, line int, msg string) error {
	stem := strings.TrimSuffix(src, filepath.Ext(src))
	switch strings.ToLower(filepath.Ext(src)) {
	case ".ncu-rep":
		msg += fmt.Sprintf("; this is an Nsight Compute report: export its pages as CSV with `ncu --import %s --csv --page details > %s.details.csv` (and --page raw, --page source --print-source cuda,sass) and give profan those", src, stem)
	case ".nsys-rep":
		msg += fmt.Sprintf("; this is an Nsight Systems report: export its kernels as CSV with `nsys stats --report cuda_gpu_kern_sum --format csv %s > %s.kern.csv` and give profan that", src, stem)
	}
	return &syntaxError{File: src, Line: line, Msg: msg}
}

// Stdin is the path that names standard input, and StdinName how errors
// and a stored run name it ("<stdin>:12: ...").
const (
	Stdin     = "-"
	StdinName = "<stdin>"
)

// openPath opens path, "-" being standard input, and returns the name
// errors give it.
func openPath(path string) (*os.File, string, error) {
	if path == Stdin {
		return os.Stdin, StdinName, nil
	}
	f, err := os.Open(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		// "x.csv: no such file or directory", as every error names the
		// file first, not "open x.csv: …".
		return nil, path, fmt.Errorf("%s: %w", safe.Term(path), pe.Err)
	}
	if err != nil {
		return nil, path, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, path, fmt.Errorf("%s: a directory, not an export file", safe.Term(path))
	}
	return f, path, nil
}

// statPath is os.Stat of path, "-" being standard input.
func statPath(path string) (os.FileInfo, error) {
	if path == Stdin {
		return os.Stdin.Stat()
	}
	return os.Stat(path)
}

// open opens the export at path.
func open(path string) (*File, error) {
	f, path, err := openPath(path)
	if err != nil {
		return nil, err
	}
	in, err := newInput(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	in.closer = f
	return in, nil
}

func newInput(r io.Reader, src string) (*File, error) {
	h := sha256.New()
	cr := &countReader{r: r}
	in := &File{src: src, cr: cr, h: h, head: new(headHash), stop: new(atomic.Bool)}
	in.pipe, _ = r.(deadliner)
	in.lr, in.err = newLineReader(cr, src, bufSize(r))
	if in.lr != nil {
		in.lr.h = in.head // until Read says which hash takes the text
	}
	return in, nil
}

// Name is the path the export was opened as.
func (in *File) Name() string { return in.src }

// Close closes the underlying file.
func (in *File) Close() error {
	if in.closer != nil {
		return in.closer.Close()
	}
	return nil
}

// Format returns the format name of the export's first table, sniffed from
// at most its first 4 MB; "" when none is found there. The lines read are
// replayed by Read.
func (in *File) Format() string {
	if in.sniffed || in.err != nil || in.used {
		return in.format
	}
	in.sniffed = true
	if d := in.document(); d != nil {
		in.format = d.Name()
		return in.format
	}
	lr := in.lr
	lr.recording = true
	var fields [][]byte
	var err error
	for {
		var line []byte
		line, err = lr.next()
		if err != nil || lr.recBytes > sniffLimit {
			break
		}
		if _, ok := parseMessage(line); ok || !isRowLike(line) {
			continue
		}
		if fields, err = splitCSV(line, fields[:0]); err != nil {
			if err == errTooManyFields {
				err = &syntaxError{File: in.src, Line: lr.n, Msg: err.Error()}
				break
			}
			err = nil
			continue
		}
		if !headerCandidate(fields) {
			continue
		}
		if imp := matchHeader(toStrings(fields)); imp != nil {
			in.format = imp.Name()
			break
		}
	}
	lr.rewind(err)
	return in.format
}

// Read parses the export and streams its contents to sink. A File is read
// once.
func (in *File) Read(opt Options, sink Sink) (*profan.Run, error) {
	if in.err != nil {
		return nil, in.err
	}
	if in.used {
		return nil, fmt.Errorf("%s: read twice", in.src)
	}
	in.cr.ctx = opt.Context
	if opt.Context != nil && in.pipe != nil {
		// A read blocked on a pipe whose writer sends nothing is where no
		// check of the context reaches: a deadline in the past ends it at
		// once (countReader says the cancellation), where Main's grace
		// took half a second. A blocking standard input takes none: the
		// grace still ends it.
		defer context.AfterFunc(opt.Context, func() { in.pipe.SetReadDeadline(time.Unix(1, 0)) })()
	}
	if stateIf[nsysHost](in.states) == nil && opt.Format == "" && in.Format() == gpuTraceFormat {
		setState(&in.states, in.launchesAhead())
	}
	in.used = true
	// The text parsed is hashed with SHA-256 into the run's digest, but
	// for a caller that has the digest already (Options.Digest: nothing
	// is hashed) and a File hashed beside the read (HashAside): the
	// aside's read computes the SHA-256 digest and a keyed 64-bit hash
	// (checkHash: hash/maphash of 32 KiB blocks, a seed drawn for this
	// File) of the same text, and this read only the latter: Digest compares
	// the two to find a file that changed while it was read.
	switch {
	case opt.Digest != "":
		in.head.choose(nil)
		in.lr.h = nil
	case in.aside != nil:
		in.quick = newCheckHash(in.aside.seed)
		in.head.choose(in.quick)
		in.lr.h = in.quick
	case in.document() == nil && !isDocument(opt.Format):
		// Lines: SHA-256 beside the parse (a document's reader hashes
		// its chunks beside it already).
		in.async = newAsideHash(in.h)
		in.head.choose(in.async)
		in.lr.h = in.async
	default:
		in.head.choose(in.h)
		in.lr.h = in.h
	}
	run, err := in.read(opt, sink)
	if err != nil && in.async != nil {
		in.async.stop() // no digest is asked for
	}
	return run, err
}

// isDocument reports whether format names a document format.
func isDocument(format string) bool {
	_, ok := documentByName(format)
	return ok
}

// headHash keeps the text the line reader hashes before the File is
// read (the head Format sniffs, replayed to the parser, not hashed
// again) until Read chooses the hash that takes it.
type headHash struct {
	chosen bool
	to     io.Writer // nil once chosen: nothing is hashed
	buf    []byte
}

func (d *headHash) Write(p []byte) (int, error) {
	if !d.chosen {
		d.buf = append(d.buf, p...)
	} else if d.to != nil {
		d.to.Write(p)
	}
	return len(p), nil
}

// choose hashes what was kept, and what comes next, into w (nil: none);
// only the first choice counts.
func (d *headHash) choose(w io.Writer) {
	if d.chosen {
		return
	}
	d.chosen, d.to = true, w
	if w != nil {
		w.Write(d.buf)
	}
	d.buf = nil
}

// finish reads what is left of the input (bytes after the end of a gzip
// stream), so that the size counts the whole file.
func (in *File) finish() error {
	if _, err := io.Copy(io.Discard, in.cr); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("reading %s: %w", in.src, err)
	}
	return nil
}

// Digest is "sha256:<hex>" of the text read so far, decoded (gzip, BOM,
// UTF-16) and with LF line ends: of the whole export once Read has
// returned. Copies of one export in other encodings have one digest.
//
// A File hashed beside its read (HashAside) waits for that digest: it is
// the digest when the check hashes of the two reads agree, "" when the
// aside failed, and changedDigest, which no digest equals, when the file
// changed between the reads.
func (in *File) Digest() string {
	if in.quick != nil {
		a := in.aside
		<-a.done
		switch {
		case a.err != nil:
			return ""
		case a.sum != in.quick.Sum64():
			return changedDigest
		}
		return a.digest
	}
	if in.async != nil {
		in.async.wait()
	}
	in.head.choose(in.h)
	return "sha256:" + hex.EncodeToString(in.h.Sum(nil))
}

// changedDigest is the digest of a read whose text differs from that of
// the digest computed beside it.
const changedDigest = "sha256:changed-while-read"

// asideDigest is what HashAside computes: the export's digest and the
// check hash of its text with seed.
type asideDigest struct {
	seed   maphash.Seed
	done   chan struct{} // closed once the fields below are set
	digest string
	sum    uint64
	err    error
}

// OpenSeekable opens the export at path so that it can be read more than
// once (Rewind). A pipe or a process substitution is copied into an
// unnamed temporary file while it is parsed, with opt: the copy stops at
// the first parse error and within every bound the parser keeps (blank
// lines, line length, binary data), so that an endless stream of blank lines, /dev/zero or a
// stream that goes wrong end with an error, not a spool that grows
// without end.
func OpenSeekable(path string, opt Options) (*File, error) {
	f, path, err := openPath(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	var rs *os.File = f
	digest := ""
	if !st.Mode().IsRegular() {
		tmp, run, err := spool(f, path, opt)
		f.Close()
		if err != nil {
			return nil, err
		}
		rs, digest = tmp, run.Digest
	}
	in, _ := newInput(rs, path)
	in.closer, in.seeker, in.spooled = rs, rs, digest
	return in, nil
}

// spool copies the stream r into an unnamed temporary file as a parse of
// it reads it, and returns the file at its start and the run the parse
// read (its digest that of the stream).
func spool(r io.Reader, path string, opt Options) (*os.File, *profan.Run, error) {
	tmp, err := os.CreateTemp("", "profan-input-*")
	if err != nil {
		return nil, nil, err
	}
	os.Remove(tmp.Name())
	tc := &textCheck{w: tmp, src: path}
	in, _ := newInput(io.TeeReader(r, tc), path)
	in.pipe, _ = r.(deadliner)
	in.checkOnly = true
	run, err := in.Read(Options{Format: opt.Format, Context: opt.Context}, Sink{Kernel: func(*profan.Run, *profan.Kernel) error { return nil }})
	if tc.err != nil {
		// The reader may take a failed read for the end of the input
		// ("empty file"): the check says what the bytes are.
		err = tc.err
	}
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		tmp.Close()
		return nil, nil, err // the parse's errors name the input and its line
	}
	return tmp, run, nil
}

// Copy reads a File opened with OpenSeekable whole, as a check, into an
// unnamed temporary copy that the File then reads from its start: what is
// read next is what was checked, whatever happens to the file meanwhile
// (rewritten, appended to). It returns the run of the check, with the
// export's digest. A stream OpenSeekable copied already is read again
// from its copy.
func (in *File) Copy(opt Options) (*profan.Run, error) {
	if in.seeker == nil {
		return nil, fmt.Errorf("%s: cannot be read twice", in.src)
	}
	if in.spooled != "" {
		run, err := in.Read(opt, Sink{Kernel: func(*profan.Run, *profan.Kernel) error { return nil }})
		if err != nil {
			return nil, err
		}
		return run, in.Rewind()
	}
	if _, err := in.seeker.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("reading %s: %w", in.src, err)
	}
	tmp, run, err := spool(in.seeker, in.src, opt)
	if err != nil {
		return nil, err
	}
	in.closer.Close()
	fresh, _ := newInput(tmp, in.src)
	*in = *fresh
	in.closer, in.seeker, in.spooled = tmp, tmp, run.Digest
	return run, nil
}

// textCheck passes a pipe's bytes on to the copy of it, and stops the
// copy at the first sign that the stream is no text export (/dev/zero,
// /dev/urandom, an endless line): a stream never ends on its own, so the
// line reader's checks would come too late. A gzip stream or UTF-16 text
// is copied as it is and checked as it is read.
type textCheck struct {
	w       io.Writer
	src     string
	n       int64 // bytes written
	line    int   // 1-based number of the current line
	lineLen int   // bytes of the current line so far
	exempt  bool
	doc     bool  // a JSON document: one line may hold all of it
	err     error // the first refusal
}

func (c *textCheck) Write(p []byte) (int, error) {
	if c.n == 0 && len(p) >= 2 {
		c.exempt = p[0] == 0x1f && p[1] == 0x8b || p[0] == 0xFF && p[1] == 0xFE || p[0] == 0xFE && p[1] == 0xFF
		head := bytes.TrimLeft(bytes.TrimPrefix(p, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
		c.doc = len(head) > 0 && (head[0] == '{' || head[0] == '[') // as File.document sniffs it
	}
	c.n += int64(len(p))
	if c.line == 0 {
		c.line = 1
	}
	if !c.exempt {
		rest := p
		for len(rest) > 0 {
			nl := bytes.IndexByte(rest, '\n')
			seg := rest
			if nl >= 0 {
				seg = rest[:nl]
			}
			if bytes.IndexByte(seg, 0) >= 0 {
				c.err = binaryError(c.src, c.line, "binary data (NUL byte): not a text export")
				return 0, c.err
			}
			c.lineLen += len(seg)
			if c.lineLen > maxLine && !c.doc {
				c.err = &syntaxError{File: c.src, Line: c.line, Msg: fmt.Sprintf("line longer than %d bytes (not a profiler export?)", maxLine)}
				return 0, c.err
			}
			if nl < 0 {
				break
			}
			c.line++
			c.lineLen = 0
			rest = rest[nl+1:]
		}
	}
	return c.w.Write(p)
}

// Size returns the size of a File opened with OpenSeekable, as HashAside
// does, without hashing it: for a caller whose read computes the digest.
func (in *File) Size() (int64, error) {
	if in.seeker == nil {
		return 0, fmt.Errorf("%s: not opened with OpenSeekable", in.src)
	}
	st, err := in.seeker.Stat()
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", in.src, err)
	}
	return st.Size(), nil
}

// HashAside hashes a File opened with OpenSeekable on a goroutine of its
// own, reading the file beside the parser (ReadAt moves no offset): the
// digest is ready long before the parse ends, and the parse need not wait
// for it. It returns the file's size and a function that waits for the
// digest. The reader still hashes what it parses, into the Run's Digest:
// where the two differ, the file changed while it was read.
func (in *File) HashAside() (size int64, digest func() (string, error), err error) {
	if in.seeker == nil {
		return 0, nil, fmt.Errorf("%s: cannot be read twice", in.src)
	}
	st, err := in.seeker.Stat()
	if err != nil {
		return 0, nil, fmt.Errorf("reading %s: %w", in.src, err)
	}
	a := &asideDigest{seed: maphash.MakeSeed(), done: make(chan struct{})}
	in.aside = a
	go func() {
		q := newCheckHash(a.seed)
		a.digest, a.err = digestOf(&stopReader{io.NewSectionReader(in.seeker, 0, st.Size()), in.stop}, in.src, q)
		a.sum = q.Sum64()
		close(a.done)
	}()
	return st.Size(), func() (string, error) {
		<-a.done
		return a.digest, a.err
	}, nil
}

// StopAside stops the digest HashAside computes, which then returns an
// error: a reader that met an error need not read the rest of the file.
func (in *File) StopAside() { in.stop.Store(true) }

var errStopped = errors.New("digest stopped")

// stopReader reads r until stop is set.
type stopReader struct {
	r    io.Reader
	stop *atomic.Bool
}

func (s *stopReader) Read(p []byte) (int, error) {
	if s.stop.Load() {
		return 0, errStopped
	}
	return s.r.Read(p)
}

// Rewind makes a File opened with OpenSeekable readable again from its
// start.
func (in *File) Rewind() error {
	if in.seeker == nil {
		return fmt.Errorf("%s: cannot be read twice", in.src)
	}
	if _, err := in.seeker.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("reading %s: %w", in.src, err)
	}
	closer, seeker, spooled := in.closer, in.seeker, in.spooled
	fresh, _ := newInput(seeker, in.src)
	*in = *fresh
	in.closer, in.seeker, in.spooled = closer, seeker, spooled
	return nil
}

// digestOf reads r decoded as the line reader decodes it (gzip, BOM,
// UTF-16) and returns the digest of its text, as File.Digest gives it. It
// reads chunks, not lines: the digest of a JSON document of one long line,
// or of a last line cut short, is the digest still; what the text holds is
// the parser's to judge.
//
// check, when not nil, is hashed the same text.
func digestOf(r io.Reader, src string, check io.Writer) (string, error) {
	lr, err := newLineReader(r, src, 256<<10)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	th := textHash{h: h}
	if check != nil {
		th.h = io.MultiWriter(h, check)
	}
	buf := make([]byte, 256<<10)
	for {
		n, err := lr.br.Read(buf)
		th.write(buf[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("reading %s: %w", src, err)
		}
	}
	th.end()
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// DigestOf returns the digest of the export at path, as Read gives it.
func DigestOf(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return digestOf(f, path, nil)
}
