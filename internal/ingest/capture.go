package ingest

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
)

// The pages of one ncu report (its raw page, its details page, the details
// page with --print-details all) hold the same launches, each with other
// counters. Given together they are one capture: read launch by launch, in
// step, each launch handed on once with the counters of every page, so
// that a capture of N launches reads as N, not N per page.

// launchPage reports whether format is an ncu page with the rows of each
// launch of a report, which the other pages of the report share.
func launchPage(format string) bool { return format == "ncu-details" || format == "ncu-raw" }

// Capture is the exports that are read as one run: one export, or the
// pages of one ncu report.
type Capture struct {
	Pages []*File
}

// Name is the capture's name: its pages' paths, joined by " + ".
func (c Capture) Name() string {
	names := make([]string, len(c.Pages))
	for i, f := range c.Pages {
		names[i] = f.Name()
	}
	return strings.Join(names, " + ")
}

// pageHead is the first launch of a launch page, as a second reader of
// the same bytes finds it.
type pageHead struct {
	f      *File
	format string
	k      *profan.Kernel // nil when the page has none (the read reports why)
}

// same reports whether two heads are of one report: one process on one
// host, the same first launch.
func (h pageHead) same(o pageHead) bool {
	a, b := h.k, o.k
	return a != nil && b != nil && a.PID == b.PID && a.Process == b.Process && a.Host == b.Host &&
		a.ID == b.ID && sameFunction(a.DisplayName(), b.DisplayName())
}

// sameProcess reports whether two heads are of one process on one host,
// whatever their first launch: pages of one report, read in step and
// matched launch by launch, their first launch too (a page whose first
// launch lost a digit of its ID is refused there, not read as a capture
// of its own that would count every launch twice).
func (h pageHead) sameProcess(o pageHead) bool {
	a, b := h.k, o.k
	return a != nil && b != nil && a.PID != "" && a.PID == b.PID && a.Process == b.Process && a.Host == b.Host
}

// sameFunction reports whether two pages name one function (as the
// kernels' DisplayName gives it: demangled within the reader's bounds), whatever
// --print-kernel-base each was exported with, and with --nvtx-rename-kernels
// ("range/function": no C++ name holds a slash).
func sameFunction(a, b string) bool {
	if a == b {
		return true
	}
	fa, ba := sourceName(a)
	fb, bb := sourceName(b)
	if i := strings.LastIndexByte(fa, '/'); i >= 0 {
		fa, ba = fa[i+1:], ba[strings.LastIndexByte(ba, '/')+1:]
	}
	if i := strings.LastIndexByte(fb, '/'); i >= 0 {
		fb, bb = fb[i+1:], bb[strings.LastIndexByte(bb, '/')+1:]
	}
	return fa == fb || (ba == bb && (fa == ba || fb == bb))
}

var errPeeked = errors.New("peeked")

// again opens a second reader of in's bytes: the file's path again, or
// the copy of a stream; nil when there is none (a pipe not copied). done
// closes what it opened.
func (in *File) again() (p *File, done func()) {
	var r io.Reader
	done = func() {}
	if in.seeker != nil {
		st, err := in.seeker.Stat()
		if err != nil {
			return nil, nil
		}
		r = io.NewSectionReader(in.seeker, 0, st.Size())
	} else {
		if in.closer == nil || in.src == StdinName {
			return nil, nil // a reader, not a path opened: src is only its name
		}
		f, err := os.Open(in.src)
		if err != nil {
			return nil, nil
		}
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			f.Close()
			return nil, nil
		}
		r, done = f, func() { f.Close() }
	}
	p, err := newInput(r, in.src)
	if err != nil {
		done()
		return nil, nil
	}
	return p, done
}

// firstLaunch reads the first launch of in from a reader of its own (see
// again). nil when there is none to read (the read proper then says what
// is wrong).
func (in *File) firstLaunch(opt Options) *profan.Kernel {
	p, done := in.again()
	if p == nil {
		return nil
	}
	defer done()
	var first *profan.Kernel
	p.Read(Options{Format: opt.Format}, Sink{Kernel: func(_ *profan.Run, k *profan.Kernel) error {
		first = k
		return errPeeked
	}})
	return first
}

// Captures groups files into captures: the launch pages of one report
// (one process on one host) are one capture, in
// the place of the first of them; every other file is a capture of its
// own, but for an nsys API trace and a GPU trace, paired into one (see
// pairTraces). Pages of one process on one host are one capture whatever
// their first launch (see sameProcess). A details page and a raw page that name the same first launch of
// the same program but come from different processes or hosts are pages
// of different captures given as one, and refused: read as two runs they
// would count each launch twice.
func Captures(files []*File, opt Options) ([]Capture, error) {
	var heads []pageHead
	for _, f := range files {
		format := f.Format()
		if opt.Format != "" {
			format = opt.Format
		}
		if launchPage(format) {
			heads = append(heads, pageHead{f: f, format: format})
		}
	}
	if len(heads) < 2 {
		out := make([]Capture, len(files))
		for i, f := range files {
			out[i] = Capture{Pages: []*File{f}}
		}
		return pairTraces(out, opt), nil
	}
	for i := range heads {
		heads[i].k = heads[i].f.firstLaunch(opt)
	}
	group := map[*File]int{} // file → index of its capture in out
	var out []Capture
	hi := 0
	for _, f := range files {
		if hi >= len(heads) || heads[hi].f != f {
			out = append(out, Capture{Pages: []*File{f}})
			continue
		}
		h := heads[hi]
		hi++
		joined := false
		for _, o := range heads[:hi-1] {
			if h.same(o) || h.sameProcess(o) {
				c := &out[group[o.f]]
				c.Pages = append(c.Pages, f)
				group[f] = group[o.f]
				joined = true
				break
			}
			if err := otherCapture(o, h); err != nil {
				return nil, err
			}
		}
		if !joined {
			group[f] = len(out)
			out = append(out, Capture{Pages: []*File{f}})
		}
	}
	for _, c := range out {
		// Raw pages first: their counters are the measured ones, and
		// come first in the launch.
		slices.SortStableFunc(c.Pages, func(a, b *File) int {
			return rawFirst(a, opt) - rawFirst(b, opt)
		})
	}
	return pairTraces(out, opt), nil
}

// otherCapture refuses a details and a raw page of the same program and
// first launch taken in different processes or on different hosts.
func otherCapture(a, b pageHead) error {
	x, y := a.k, b.k
	if x == nil || y == nil || a.format == b.format || x.Process != y.Process || x.ID != y.ID || !sameFunction(x.DisplayName(), y.DisplayName()) {
		return nil
	}
	what := fmt.Sprintf("process ID %s here, %s there", y.PID, x.PID)
	if x.Host != y.Host {
		what = fmt.Sprintf("host %s here, %s there", y.Host, x.Host)
	}
	return &syntaxError{File: b.f.Name(), Line: y.Line, Msg: fmt.Sprintf(
		"this %s page and the %s page %s:%d begin with the same launch %s of %s, but from another capture (%s): pages of one report are read as one capture; give each capture's pages on their own",
		pageKind(b.format), pageKind(a.format), safe.Term(a.f.Name()), x.Line, x.ID, shorten(x.Name, 60), what)}
}

func rawFirst(f *File, opt Options) int {
	if f.Format() == "ncu-raw" || opt.Format == "ncu-raw" {
		return 0
	}
	return 1
}

func pageKind(format string) string { return strings.TrimPrefix(format, "ncu-") }

// pageStream reads one page on a goroutine of its own and hands its
// launches over one at a time.
type pageStream struct {
	f   *File
	ch  chan *profan.Kernel
	run *profan.Run
	err error
}

// ReadCapture reads a capture and hands each launch to fn: an export as
// File.Read does, an nsys report's API and GPU traces as readTraces does,
// the pages of an ncu report as readCapture does.
func ReadCapture(c Capture, opt Options, fn func(*profan.Run, *profan.Kernel) error) (*profan.Run, error) {
	if len(c.Pages) == 1 {
		return c.Pages[0].Read(opt, Sink{Kernel: fn})
	}
	if c.traces() {
		return readTraces(c, opt, fn)
	}
	return readCapture(c, opt, fn)
}

// readCapture reads the pages of one capture in step, launch by launch,
// and hands each launch to fn once, with the counters of every page: a
// raw page's first (its counters beat what the details page's rule text
// gives), then the details pages'. Launches that disagree (IDs, names,
// process, shapes, device, duration) or a page with launches the others
// lack are refused at their line. The run returned stands for the whole
// capture: its source names every page, its digest is that of the pages'
// digests.
func readCapture(c Capture, opt Options, fn func(*profan.Run, *profan.Kernel) error) (*profan.Run, error) {
	pages := c.Pages
	capture := &profan.Run{Source: safe.Term(c.Name()), Tool: profan.ToolNCU, Format: pages[0].Format()}
	if opt.Format != "" {
		capture.Format = opt.Format
	}
	stop := make(chan struct{})
	streams := make([]*pageStream, len(pages))
	var wg sync.WaitGroup
	for i, f := range pages {
		p := &pageStream{f: f, ch: make(chan *profan.Kernel, 1)}
		streams[i] = p
		wg.Go(func() {
			defer close(p.ch)
			p.run, p.err = f.Read(Options{Format: opt.Format, MaxTextMessages: opt.MaxTextMessages}, Sink{Kernel: func(_ *profan.Run, k *profan.Kernel) error {
				select {
				case p.ch <- k:
					return nil
				case <-stop:
					return errStopped
				}
			}})
		})
	}
	finish := func() {
		close(stop)
		for _, p := range streams {
			for range p.ch {
			}
		}
		wg.Wait()
	}
	n := 0
	ks := make([]*profan.Kernel, len(streams))
	for {
		ended := 0
		for i, p := range streams {
			k, ok := <-p.ch
			ks[i] = k
			if !ok {
				ended++
			}
		}
		if ended > 0 {
			finish()
			for _, p := range streams {
				if p.err != nil && !errors.Is(p.err, errStopped) {
					return nil, p.err
				}
			}
			if ended < len(streams) {
				return nil, unmatchedLaunch(streams, ks, n)
			}
			break
		}
		k, err := mergeLaunch(streams, ks)
		if err == nil {
			err = fn(capture, k)
		}
		if err != nil {
			finish()
			return nil, err
		}
		n++
	}
	return captureRun(capture, streams, n), nil
}

// unmatchedLaunch is the error of pages that end at different launches:
// the first launch one page has and another lacks.
func unmatchedLaunch(streams []*pageStream, ks []*profan.Kernel, n int) error {
	short := ""
	for i, k := range ks {
		if k == nil {
			short = streams[i].f.Name()
			break
		}
	}
	for i, k := range ks {
		if k != nil {
			return &syntaxError{File: streams[i].f.Name(), Line: k.Line, Msg: fmt.Sprintf(
				"launch %s of %s has no counterpart in %s, which ends after %d launches: the pages of one report hold the same launches (a page cut short, or of another capture?)",
				k.ID, shorten(k.Name, 60), safe.Term(short), n)}
		}
	}
	return nil
}

// mergeLaunch checks that the pages' launches are one launch and returns
// it with the counters of every page; the first page's values come first.
func mergeLaunch(streams []*pageStream, ks []*profan.Kernel) (*profan.Kernel, error) {
	base := ks[0]
	for i, k := range ks[1:] {
		if what := launchDiffers(base, k); what != "" {
			return nil, &syntaxError{File: streams[i+1].f.Name(), Line: k.Line, Msg: fmt.Sprintf(
				"launch %s of %s disagrees with %s:%d on its %s: pages of one report agree on every launch (a page of another capture?)",
				k.ID, shorten(k.Name, 60), safe.Term(streams[0].f.Name()), base.Line, what)}
		}
		for _, m := range k.Metrics {
			base.AddMetric(m)
		}
		if len(base.Findings) == 0 {
			base.Findings = k.Findings // a details page printed with --print-details all repeats them
		}
		if math.IsNaN(base.Duration) {
			base.Duration = k.Duration
		}
		if math.IsNaN(base.Start) {
			base.Start = k.Start
		}
		if base.Registers == 0 {
			base.Registers = k.Registers
		}
		if math.IsNaN(base.StaticSMem) {
			base.StaticSMem = k.StaticSMem
		}
		if math.IsNaN(base.DynamicSMem) {
			base.DynamicSMem = k.DynamicSMem
		}
		if base.Device == "" {
			base.Device = k.Device
		}
		if base.CC == "" {
			base.CC = k.CC
		}
	}
	return base, nil
}

// launchDiffers says on what b, a launch of another page, differs from a:
// "" when they are one launch.
func launchDiffers(a, b *profan.Kernel) string {
	switch {
	case a.ID != b.ID:
		return fmt.Sprintf("launch ID (%s here, %s there)", b.ID, a.ID)
	case !sameFunction(a.DisplayName(), b.DisplayName()):
		return fmt.Sprintf("kernel (%s there)", shorten(a.Name, 60))
	case a.PID != b.PID || a.Process != b.Process:
		return fmt.Sprintf("process (%s %s here, %s %s there)", b.Process, b.PID, a.Process, a.PID)
	case a.Host != b.Host:
		return fmt.Sprintf("host (%s here, %s there)", b.Host, a.Host)
	case a.Grid.Known() && b.Grid.Known() && a.Grid != b.Grid:
		return fmt.Sprintf("grid (%v here, %v there)", b.Grid, a.Grid)
	case a.Block.Known() && b.Block.Known() && a.Block != b.Block:
		return fmt.Sprintf("block (%v here, %v there)", b.Block, a.Block)
	case a.DeviceIndex >= 0 && b.DeviceIndex >= 0 && a.DeviceIndex != b.DeviceIndex:
		return fmt.Sprintf("device (%d here, %d there)", b.DeviceIndex, a.DeviceIndex)
	case a.CC != "" && b.CC != "" && a.CC != b.CC:
		return fmt.Sprintf("compute capability (%s here, %s there)", b.CC, a.CC)
	case a.Device != "" && b.Device != "" && a.Device != b.Device:
		return fmt.Sprintf("device (%s here, %s there)", b.Device, a.Device)
	case a.Duration > 0 && b.Duration > 0 && math.Abs(a.Duration-b.Duration) > durationSlack*math.Max(a.Duration, b.Duration):
		return fmt.Sprintf("duration (%.4g s here, %.4g s there)", b.Duration, a.Duration)
	}
	return ""
}

// durationSlack is how far the durations of one launch on two pages may
// differ: the details page rounds to 3 or 4 digits (1.29 ms), by up to
// 0.4%; a launch measured twice differs by more.
const durationSlack = 0.01

// captureRun makes the run of a capture from its pages' runs: their
// messages (a line's named with its page), accounting, sizes and digests.
func captureRun(c *profan.Run, streams []*pageStream, launches int) *profan.Run {
	skipped := map[string]int{}
	h := sha256.New()
	digests := make([]string, 0, len(streams))
	seen := map[string]string{}
	for _, p := range streams {
		r := p.run
		if first, ok := seen[r.Digest]; ok && r.Digest != "" {
			// The same export given twice merges with itself: said, and
			// counted once.
			c.Messages = append(c.Messages, profan.Message{Level: profan.LevelNote,
				Text: fmt.Sprintf("%s holds the same export as %s once decoded: read once", safe.Term(p.f.Name()), safe.Term(first))})
			continue
		}
		seen[r.Digest] = p.f.Name()
		if c.ToolVersion == "" {
			c.ToolVersion = r.ToolVersion
		}
		c.Size += r.Size
		digests = append(digests, r.Digest)
		for _, m := range r.Messages {
			if m.Line > 0 {
				m.Text = fmt.Sprintf("%s:%d: %s", r.Source, m.Line, m.Text)
				m.Line = 0
			}
			c.Messages = append(c.Messages, m)
		}
		a := r.Accounting
		c.Accounting.Lines += a.Lines
		c.Accounting.Headers += a.Headers
		c.Accounting.Rows += a.Rows
		c.Accounting.Activities += a.Activities
		for _, s := range a.Skipped {
			if i, ok := skipped[s.Rule]; ok {
				c.Accounting.Skipped[i].Lines += s.Lines
				continue
			}
			skipped[s.Rule] = len(c.Accounting.Skipped)
			c.Accounting.Skipped = append(c.Accounting.Skipped, s)
		}
		c.Activities = append(c.Activities, r.Activities...)
		c.APICalls = append(c.APICalls, r.APICalls...)
	}
	c.Accounting.Records, c.Accounting.Launches = launches, launches
	// One digest for the capture, whatever order its pages were given in.
	sort.Strings(digests)
	for _, d := range digests {
		io.WriteString(h, d+"\n")
	}
	c.Digest = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return c
}
