package ingest

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/profan-dev/profan"
)

// torchTrace reads the PyTorch profiler's trace: the Chrome trace JSON
// that torch.profiler's export_chrome_trace writes through Kineto (plain
// or .json.gz). Its header names the devices (deviceProperties), the
// rank (distributedInfo) and the schema (schemaVersion); its traceEvents
// hold, on the GPU, kernels ("kernel", Kineto before PyTorch 1.11:
// "Kernel"), copies ("gpu_memcpy", "Memcpy") and memsets ("gpu_memset",
// "Memset"), and on the host the CUDA runtime and driver calls
// ("cuda_runtime", "cuda_driver"), the aten ops ("cpu_op", "Operator"),
// record_function ranges ("user_annotation") and, with with_stack=True,
// the Python frames ("python_function"); flow events ("ac2g") tie a
// launch to its kernel, as the args' "correlation" does.
//
// It streams: jsonLex (jsonlex.go) walks the document by tokens in one
// pass and one event is decoded at a time. Kernels go to the sink as they come;
// copies and memsets become activities; every runtime and driver call is
// summed by name into the run's API calls, and those that can hold the
// GPU idle (synchronisations, copies, memsets) are kept one by one with
// the aten op and Python frame around them, up to MaxHostEvents. The aten
// ops and frames are kept compactly (24 bytes each) until the end of the
// trace, to find the op around each kept call, then dropped.
//
// Times are microseconds since an arbitrary origin; a Kernel's Start is
// in seconds since the first timestamp of the trace.
type torchTrace struct{}

func (torchTrace) Name() string { return "pytorch-trace" }
func (torchTrace) Tool() string { return profan.ToolTorch }

// Sniff takes a document that starts as JSON does; whether it is
// PyTorch's is decided while reading it, at the byte where it stops
// being one.
func (torchTrace) Sniff(head []byte) bool {
	return len(head) > 0 && (head[0] == '{' || head[0] == '[')
}

// torch event categories: what PyTorch's Kineto writes.
const (
	catKernel = iota + 1
	catCopy
	catSet
	catRuntime
	catDriver
	catOp
	catAnnotation
	catFrame
	catFlow
	catOther // written by PyTorch, not read: counted
)

// torchCats maps a category, lower-cased, to its kind. The ones profan
// does not read are PyTorch's too (instant events, Kineto's spans and
// overhead, GPU-side annotations, memory events), so that a trace of a
// newer PyTorch is not refused for them.
var torchCats = map[string]int{
	"kernel": catKernel, "gpu_memcpy": catCopy, "memcpy": catCopy, "gpu_memset": catSet, "memset": catSet,
	"cuda_runtime": catRuntime, "runtime": catRuntime, "cuda_driver": catDriver, "driver": catDriver,
	"cpu_op": catOp, "operator": catOp, "user_annotation": catAnnotation, "python_function": catFrame,
	"ac2g": catFlow, "async_cpu_to_gpu": catFlow, "fwdbwd": catOther, "forward_backward": catOther,
	"gpu_user_annotation": catOther, "cpu_instant_event": catOther, "python_instant_event": catOther,
	"trace": catOther, "overhead": catOther, "cuda_sync": catOther, "cuda_profiler_range": catOther,
	"memory": catOther, "gpu_memory": catOther, "privateuse1_runtime": catOther, "privateuse1_driver": catOther,
	"mtia_runtime": catOther, "mtia_ccp_events": catOther, "xpu_runtime": catOther, "xpu_driver": catOther,
	"collective_comm": catOther, "gpu_pm_counter": catOther,
}

// Skip rules of a PyTorch trace (counted events, not lines).
const (
	skipTorchMeta    = "trace metadata event (ph M: process and thread names)"
	skipTorchInstant = "instant or counter event"
	skipTorchOther   = "event of a category profan does not read"
	skipTorchNoCat   = "event without a category"
	skipTorchKey     = "header field profan does not read"
)

// tev is one event as read; reused, reset before each event.
type tev struct {
	Ph, Cat, Name string
	Pid, Tid, ID  jid
	TS, Dur       usTime
	Args          tevArgs
}

type tevArgs struct {
	Device, InDevice, Context, Stream, Correlation jid
	Registers, SharedMem, Bytes                    jnum
	Grid, Block                                    []int64
	// OpBytes is the bytes an aten op moves, from its recorded shapes
	// (shapeBuf.opMoved); 0 when it has none.
	OpBytes float64
	// Bench is a convolution op's benchmark argument: 0 unread, 1
	// False, 2 True (convBench).
	Bench int8
}

// readEvent reads one event object into r.ev.
func (r *torchReader) readEvent() error {
	r.grid, r.block = r.ev.Args.Grid[:0], r.ev.Args.Block[:0]
	r.ev, r.rv = tev{}, tevRaw{}
	r.shape.reset()
	if err := r.object("an event", r.eventKey); err != nil {
		return err
	}
	if r.shape.hasDims {
		r.ev.Args.OpBytes = r.shape.opMoved(r.rv.name)
	}
	return nil
}

// eventKey reads the value of one key of an event.
func (r *torchReader) eventKey(k []byte) error {
	e := &r.ev
	var err error
	switch string(k) {
	case "ph":
		r.rv.ph, _, err = r.rawVal("ph", "a string", "s")
	case "cat":
		r.rv.cat, _, err = r.rawVal("cat", "a string", "s")
	case "name":
		r.rv.name, _, err = r.rawVal("name", "a string", "s")
	case "pid":
		r.rv.pid, r.rv.pidSet, err = r.rawVal("pid", "a number or a string", "sn")
	case "tid":
		r.rv.tid, r.rv.tidSet, err = r.rawVal("tid", "a number or a string", "sn")
	case "id":
		e.ID, err = r.corrVal("id")
	case "ts":
		e.TS, err = r.timeVal("ts")
	case "dur":
		e.Dur, err = r.timeVal("dur")
	case "args":
		if c, ok := r.lex.peek(); ok && c == '{' && r.argsUnread() && r.lex.skipFast() {
			return nil
		}
		err = r.object("\"args\"", r.argKey)
	default:
		err = r.lex.skip()
	}
	return err
}

// argKey reads the value of one key of an event's args.
func (r *torchReader) argKey(k []byte) error {
	a := &r.ev.Args
	var err error
	switch string(k) {
	case "device":
		a.Device, err = r.idVal("device")
	case "inDevice":
		a.InDevice, err = r.idVal("inDevice")
	case "context":
		a.Context, err = r.idVal("context")
	case "stream":
		a.Stream, err = r.idVal("stream")
	case "correlation":
		a.Correlation, err = r.corrVal("correlation")
	case "registers per thread":
		a.Registers, err = r.numVal("registers per thread")
	case "shared memory":
		a.SharedMem, err = r.numVal("shared memory")
	case "bytes":
		a.Bytes, err = r.numVal("bytes")
	case "grid":
		a.Grid, err = r.dimVal("grid", r.grid)
	case "block":
		a.Block, err = r.dimVal("block", r.block)
	case "Input Dims":
		b := &r.shape
		b.hasDims, err = r.shapeList(&b.dims, &b.dRank, &b.dIn)
	case "Input Strides":
		b := &r.shape
		b.hasStrides, err = r.shapeList(&b.strides, &b.sRank, nil)
	case "Input type":
		b := &r.shape
		b.hasTypes, err = r.typeList(&b.size)
	case "Concrete Inputs":
		if !convOp(r.rv.name) {
			return r.lex.skip()
		}
		a.Bench, err = r.convBench()
	default:
		err = r.lex.skip()
	}
	return err
}

// torchReader is the state of one trace's reading.
type torchReader struct {
	s           *stream
	t           *table
	src         string
	lex         *jsonLex
	grid, block []int64 // the backing arrays of the event's grid and block, reused
	in          *jsonSource
	tab         interner
	ev          tev
	// cats caches categories found in torchCats, by their text (the
	// interned strings repeat), so that an event's category is not
	// looked up in the map: catSlot picks the slot.
	cats [8]struct {
		text string
		cat  int
	}
	pytorch  bool // a PyTorch header field or event was met
	origin   int64
	hasOrig  bool
	devices  map[string]torchDevice
	api      map[string]*profan.APICall
	apiOrder []string
	ops      []hostRec
	// opBytes is each op's bytes (packBytes), beside ops; opsSorted
	// the ops sorted so far (sortOps); shape the shape args of the
	// event being decoded (torch_shapes.go).
	opBytes   []uint16
	opsSorted int
	shape     shapeBuf
	frames    []hostRec // the user's frames only
	// ticks are the other Python frames' starts, by thread, in
	// tickNS from origin: counted into the spans (HostSpan.Frames).
	ticks map[int32][]int32
	// numeric are the numerical libraries' frames' starts, as ticks.
	numeric map[int32][]int32
	// pyCalls counts the short calls from Python into C by duration,
	// pyCallNS a bucket (profan.Host.PyCall).
	pyCalls  [pyCallBuckets]uint32
	hostSide // the launching threads' spans (torch_host.go)
	long     map[[2]int64]int64
	user     []bool // by name index: a frame of the user's code
	names    []string
	nameIdx  map[string]int32
	tids     []string
	tidIdx   map[string]int32
	kept     []*profan.HostEvent
	// keptFrames counts the Python frames kept whole (HostFrame), up
	// to maxKeptFrames: a model of many small modules calls forward
	// often, and the calls and annotations must stay.
	keptFrames int
	hostLo     int64
	hostHi     int64
	hostSeen   bool
	corr       int // kernels without a correlation: numbered in order
	// launched is when each launch call queued its work, by correlation, for
	// the kernels that come after their call (Kineto writes the host's
	// events first); bounded by maxLaunched.
	launched map[int64]launchRec
	// pending are kernels met before their launch call (a graph's:
	// Kineto writes cudaGraphLaunch after the kernels that start while it
	// runs), held until it comes, at most maxPending.
	pending []pendingKernel
	// input is the export, read again for its devices when they come
	// after its events (devicesAhead).
	input *File
	// devSeen: deviceProperties was read; eventsSeen: traceEvents was.
	devSeen, eventsSeen bool
	// unresolved are the device IDs events named that no device had
	// when they were read (at most maxUnresolved).
	unresolved map[string]struct{}
	ids        gpuIdentities // see torch_identity.go
	// piped: the events are decoded ahead (torch_decode.go); the one
	// being filed starts at evOff on line evLine and ends before evEnd,
	// on line evEOL.
	// rv is the raw text of the event being decoded, arena the bytes
	// that hold it (the decoder's).
	rv            tevRaw
	arena         []byte
	piped         bool
	evOff, evEnd  int64
	evLine, evEOL int
}

const maxUnresolved = 64

// launchRec is when a launch call queued its work; a graph's stays for
// all its kernels, a kernel launch's is dropped once its kernel came.
type launchRec struct {
	t     int64
	bytes float32 // what the op around the call moves (opBytesAt)
	graph bool
}

type pendingKernel struct {
	k    *profan.Kernel
	corr int64
	line int
}

const maxPending = 1 << 12

// maxLaunched bounds the launch calls remembered for their kernels.
const maxLaunched = 1 << 22

type torchDevice struct {
	name string
	cc   string
}

// readTorch reads a PyTorch trace from the decoded text of in.
func readTorch(s *stream, in *File) error {
	r := &torchReader{s: s, t: &table{s: s}, src: s.src, tab: interner{m: map[string]string{}},
		devices: map[string]torchDevice{}, api: map[string]*profan.APICall{},
		nameIdx: map[string]int32{}, tidIdx: map[string]int32{}, launched: map[int64]launchRec{}, long: map[[2]int64]int64{}}
	r.in = &jsonSource{src: s.src, br: s.lr.br, h: s.lr.h}
	r.in.th.h = s.lr.h
	r.input = in
	r.lex = newJSONLex(r.in)
	defer r.in.stop()
	s.run.Tool = profan.ToolTorch
	s.run.Host = &profan.Host{Start: math.NaN(), End: math.NaN(), Rank: -1}
	if err := r.document(); err != nil {
		var je *jsonErr
		if errors.As(err, &je) {
			return &syntaxError{File: r.src, Line: r.in.lineAt(je.off), Msg: je.Error()}
		}
		return err
	}
	if err := r.corrsEnd(); err != nil {
		return err
	}
	if err := r.flush(len(r.pending)); err != nil {
		return err
	}
	r.finish()
	s.acct.Lines = r.in.lines
	return nil
}

// errorAt is the error at byte off of the decoded text.
func (r *torchReader) errorAt(off int64, format string, args ...any) error {
	return &syntaxError{File: r.src, Line: r.lineAt(off), Msg: fmt.Sprintf("byte %d: ", off) + fmt.Sprintf(format, args...)}
}

// document reads the top-level object.
func (r *torchReader) document() error {
	l := r.lex
	c, ok := l.peek()
	if !ok {
		return l.eof()
	}
	if c != '{' {
		return l.errorf(l.offset(), "a JSON array or value, not the object PyTorch's trace is (a Chrome trace in array form, or not a trace)")
	}
	l.pos++
	events := false
	more, err := l.first('}')
	for more && err == nil {
		off := l.offset()
		k, kerr := l.key()
		if kerr != nil {
			return kerr
		}
		switch string(k) {
		case "traceEvents":
			if !r.devSeen {
				r.devicesAhead()
			}
			err = r.events()
			events, r.eventsSeen = true, true
		case "schemaVersion":
			var v jid
			v, err = r.idVal("schemaVersion")
			r.pytorch = true
			r.s.run.ToolVersion = "schema " + v.s
		case "deviceProperties":
			if err = r.deviceProperties(); err == nil {
				err = r.lateDevices(off)
			}
			r.pytorch, r.devSeen = true, true
		case "distributedInfo":
			err = r.distributedInfo()
			r.pytorch = true
		case "baseTimeNanoseconds":
			// Kineto's wall-clock origin (Unix nanoseconds): when the
			// capture was taken. A value outside 2000–2200 is no date
			// and is left unread.
			var v jid
			if v, err = r.corrVal("baseTimeNanoseconds"); err == nil && v.num && v.n > 946684800e9 && v.n < 7258118400e9 {
				r.s.run.Captured = time.Unix(0, v.n).UTC()
			}
		default:
			err = l.skip()
			r.skip(skipTorchKey, off)
		}
		if err != nil {
			return err
		}
		more, err = l.more('}')
	}
	if err != nil {
		return err
	}
	if c, ok := l.peek(); ok {
		return l.errorf(l.offset(), "data after the end of the trace's JSON object: %s", quoteByte(c))
	}
	if err := l.srcErr(); err != nil {
		return err
	}
	if !events {
		return l.errorf(l.offset(), "a JSON object without \"traceEvents\": not a PyTorch profiler trace")
	}
	if !r.pytorch {
		return l.errorf(0, "a Chrome trace without PyTorch's header (schemaVersion, deviceProperties) or events (cpu_op, kernel, cuda_runtime): not a PyTorch profiler trace")
	}
	return nil
}

// object reads an object, calling member for each key.
func (r *torchReader) object(what string, member func(key []byte) error) error {
	l := r.lex
	c, ok := l.peek()
	if !ok {
		return l.eof()
	}
	if c != '{' {
		return l.errorf(l.offset(), "%s is an object, not %s", what, quoteByte(c))
	}
	l.pos++
	more, err := l.first('}')
	for more && err == nil {
		k, kerr := l.key()
		if kerr != nil {
			return kerr
		}
		if err = member(k); err != nil {
			return err
		}
		more, err = l.more('}')
	}
	return err
}

func (r *torchReader) deviceProperties() error {
	l := r.lex
	if err := l.expect('[', "\"deviceProperties\" is an array"); err != nil {
		return err
	}
	more, err := l.first(']')
	for more && err == nil {
		var id jid
		var name string
		var major, minor jnum
		err = r.object("a device's properties", func(k []byte) error {
			var err error
			switch string(k) {
			case "id":
				id, err = r.idVal("id")
			case "name":
				name, err = r.strVal("name")
			case "computeMajor":
				major, err = r.numVal("computeMajor")
			case "computeMinor":
				minor, err = r.numVal("computeMinor")
			default:
				err = l.skip()
			}
			return err
		})
		if err != nil {
			return err
		}
		if id.set {
			d := torchDevice{name: name}
			if major.set && minor.set {
				d.cc = fmt.Sprintf("%d.%d", int(major.v), int(minor.v))
			}
			r.devices[id.s] = d
		}
		more, err = l.more(']')
	}
	return err
}

// devicesAhead reads the devices of a trace whose traceEvents come before
// its deviceProperties (JSON's members have no order) from a second
// reader of the same bytes, before the events: a kernel is handed on as
// soon as it is read, with its device and compute capability. A PyTorch
// header met there (schemaVersion, deviceProperties, distributedInfo)
// makes the events PyTorch's, as if it came first. What is wrong there
// is left to the read proper to find. A stream that cannot be read twice
// (a pipe not copied) is checked at its deviceProperties instead
// (lateDevices).
func (r *torchReader) devicesAhead() {
	p, done := r.input.again()
	if p == nil {
		return
	}
	defer done()
	if p.lr == nil {
		return
	}
	ahead := &torchReader{lex: newJSONLex(p.lr.br), tab: interner{m: map[string]string{}}, devices: r.devices}
	l := ahead.lex
	if c, ok := l.peek(); !ok || c != '{' {
		return
	}
	l.pos++
	more, err := l.first('}')
	for more && err == nil {
		k, kerr := l.key()
		if kerr != nil {
			return
		}
		switch string(k) {
		case "deviceProperties":
			err = ahead.deviceProperties()
			r.pytorch = true
		case "schemaVersion", "distributedInfo":
			err = l.skip()
			r.pytorch = true
		default:
			err = l.skip()
		}
		if err == nil {
			more, err = l.more('}')
		}
	}
}

// lateDevices refuses deviceProperties that name, after the events, a
// device that events read before them named: read once (a pipe), their
// kernels were handed on without it.
func (r *torchReader) lateDevices(off int64) error {
	if r.input != nil && r.input.checkOnly {
		return nil
	}
	for id := range r.unresolved {
		if _, ok := r.devices[id]; ok {
			return r.errorAt(off, "\"deviceProperties\" after \"traceEvents\" in a stream read once: the kernels of device %s were read without their device; give the trace as a file", id)
		}
	}
	return nil
}

func (r *torchReader) distributedInfo() error {
	return r.object("\"distributedInfo\"", func(k []byte) error {
		switch string(k) {
		case "rank", "world_size":
			key := string(k)
			v, err := r.numVal(key)
			if err == nil && v.set {
				if key == "rank" {
					r.s.run.Host.Rank = int(v.v)
				} else {
					r.s.run.Host.WorldSize = int(v.v)
				}
			}
			return err
		}
		return r.lex.skip()
	})
}

func (r *torchReader) skip(rule string, off int64) {
	for i := range r.s.acct.Skipped {
		if r.s.acct.Skipped[i].Rule == rule {
			r.s.acct.Skipped[i].Lines++
			return
		}
	}
	r.s.acct.Skipped = append(r.s.acct.Skipped, profan.SkipCount{Rule: rule, Lines: 1, First: r.lineAt(off)})
}

// event files one decoded event: its category, the fields a complete
// event of that category must have, then the record it becomes.
func (r *torchReader) event(off int64) error {
	cat, filed, err := r.category(off)
	if filed || err != nil {
		return err
	}
	if err := r.complete(cat, off); err != nil {
		return err
	}
	if !r.hasOrig {
		r.origin, r.hasOrig = r.ev.TS.ns, true
	}
	if e := &r.ev; e.TS.ns-r.origin > maxSpanNS || r.origin-e.TS.ns > maxSpanNS || e.Dur.ns > maxSpanNS {
		return r.errorAt(off, "%q: starts %.4g s from the trace's first event, or lasts %.4g s: more than %.0f years, not one trace's times", e.Name,
			float64(e.TS.ns-r.origin)/1e9, float64(e.Dur.ns)/1e9, maxSpanNS/1e9/(365.25*86400))
	}
	return r.file(cat, off)
}

// catSlot is the slot of r.cats for the category s (not empty).
func catSlot[T string | []byte](s T) int {
	return (len(s) ^ int(s[0]) ^ int(s[len(s)-1])<<1) & 7
}

// category reads an event's phase and category; filed reports an event
// dealt with here (skipped, or a flow counted).
func (r *torchReader) category(off int64) (cat int, filed bool, err error) {
	e := &r.ev
	switch e.Ph {
	case "":
		// Every event of a Chrome trace has its phase, PyTorch's first:
		// an event without one lost the line that held it (its phase,
		// category and name), and would be skipped as of no category.
		return 0, true, r.errorAt(off, "an event without \"ph\" (its phase): every trace event has one (a line of the event lost?)")
	case "M":
		r.skip(skipTorchMeta, off)
		return 0, true, nil
	case "i", "I", "C", "n", "R", "O", "N", "D":
		r.skip(skipTorchInstant, off)
		return 0, true, nil
	}
	if e.Cat == "" {
		if e.Ph == "X" && !r.pytorch {
			return 0, true, r.errorAt(off, "a complete event without a category: PyTorch's events all have one (not a PyTorch profiler trace)")
		}
		r.skip(skipTorchNoCat, off)
		return 0, true, nil
	}
	slot := &r.cats[catSlot(e.Cat)]
	cat, ok := slot.cat, slot.text == e.Cat
	if !ok {
		cat, ok = torchCats[e.Cat]
		if !ok {
			cat, ok = torchCats[strings.ToLower(e.Cat)]
		}
		if ok {
			slot.text, slot.cat = e.Cat, cat
		}
	}
	if !ok {
		if !r.pytorch {
			return 0, true, r.errorAt(off, "event category %q is not one PyTorch writes, and no PyTorch header came before it (a Chrome or Perfetto trace, not PyTorch's)", e.Cat)
		}
		r.skip(skipTorchOther+" ("+e.Cat+")", off)
		return 0, true, nil
	}
	r.pytorch = true
	switch cat {
	case catOther:
		r.skip(skipTorchOther+" ("+e.Cat+")", off)
		return cat, true, nil
	case catFlow:
		r.s.run.Host.Flows++
		return cat, true, nil
	}
	return cat, false, nil
}

// complete checks the fields PyTorch writes on every complete event of
// the category: without one, the event lost a line.
func (r *torchReader) complete(cat int, off int64) error {
	e := &r.ev
	if e.Ph != "X" {
		return r.errorAt(off, "a %q event with phase %q: PyTorch writes them as complete events (ph X)", e.Cat, e.Ph)
	}
	if !e.TS.set || !e.Dur.set {
		return r.errorAt(off, "a %q event without \"ts\" or \"dur\"", e.Cat)
	}
	if e.Dur.ns < 0 {
		return r.errorAt(off, "%q: negative duration %d ns", e.Name, e.Dur.ns)
	}
	if e.Name == "" {
		return r.errorAt(off, "a %q event without a name", e.Cat)
	}
	if gpuOrCall := cat == catKernel || cat == catCopy || cat == catSet || cat == catRuntime || cat == catDriver; gpuOrCall && !e.Args.Correlation.set {
		// PyTorch writes one on every kernel, copy, memset and CUDA
		// call, its args on one line: without it the event lost them,
		// and a kernel would read without its launch call and shape.
		return r.errorAt(off, "a %q event without \"correlation\" in its args (its args lost?)", e.Cat)
	}
	return nil
}

// file makes a checked event the record its category calls for.
func (r *torchReader) file(cat int, off int64) error {
	e := &r.ev
	switch cat {
	case catKernel, catCopy, catSet:
		if err := r.identity(off); err != nil {
			return err
		}
		if cat == catKernel {
			return r.kernel(off)
		}
		return r.activity(cat, off)
	case catRuntime, catDriver:
		r.host(e.TS.ns, e.Dur.ns)
		return r.call(cat, off)
	case catOp, catFrame:
		r.host(e.TS.ns, e.Dur.ns)
		if cat == catOp {
			r.s.run.Host.Ops++
			switch e.Args.Bench {
			case 1:
				r.s.run.Host.ConvHeuristic++
			case 2:
				r.s.run.Host.ConvBenchmark++
			}
			switch e.Name {
			case "aten::conv2d", "aten::conv_transpose2d":
				r.s.run.Host.Conv2D++
			case "aten::conv3d", "aten::conv_transpose3d":
				r.s.run.Host.Conv3D++
			}
			r.ops = append(r.ops, newHostRec(e.TS.ns, e.Dur.ns, r.nameOf(e.Name), r.tidOf(e.Tid.s), r.long))
			r.opBytes = append(r.opBytes, packBytes(e.Args.OpBytes))
		} else {
			// Only the frames of the user's code are kept: the ones a
			// call is attributed to.
			r.s.run.Host.Frames++
			r.builtin(e.Name, e.TS.ns, e.Dur.ns, e.Tid.s)
			if numericFrame(e.Name) {
				r.tick(&r.numeric, r.tidOf(e.Tid.s), e.TS.ns)
			}
			n := r.nameOf(e.Name)
			r.keepFrame(n, e.Name, e.TS.ns, e.Dur.ns, e.Tid.s)
			if r.user[n] {
				r.frames = append(r.frames, newHostRec(e.TS.ns, e.Dur.ns, n, r.tidOf(e.Tid.s), r.long))
			} else {
				tid := r.tidOf(e.Tid.s)
				if m := hostRead(e.Name); m != "" {
					r.reads = append(r.reads, newHostRec(e.TS.ns, e.Dur.ns, r.nameOf(m), tid, r.long))
				}
				r.tick(&r.ticks, tid, e.TS.ns)
			}
		}
	case catAnnotation:
		r.host(e.TS.ns, e.Dur.ns)
		r.keep(&profan.HostEvent{Kind: profan.HostAnnotation, Name: e.Name, Start: r.sec(e.TS.ns), Duration: float64(e.Dur.ns) / 1e9, Thread: e.Tid.s})
	}
	return nil
}

// host widens the host side's extent.
func (r *torchReader) host(ts, dur int64) {
	if !r.hostSeen || ts < r.hostLo {
		r.hostLo = ts
	}
	if !r.hostSeen || ts+dur > r.hostHi {
		r.hostHi = ts + dur
	}
	r.hostSeen = true
}

func (r *torchReader) sec(ns int64) float64 { return float64(ns-r.origin) / 1e9 }

func (r *torchReader) nameOf(s string) int32 {
	if i, ok := r.nameIdx[s]; ok {
		return i
	}
	if len(r.nameIdx) >= maxNames {
		// Past the bound, the names share one: ops are for attribution.
		s = "(one of many names)"
		if i, ok := r.nameIdx[s]; ok {
			return i
		}
	}
	i := int32(len(r.names))
	r.names = append(r.names, s)
	r.user = append(r.user, userFrame(s))
	r.nameIdx[s] = i
	return i
}

func (r *torchReader) tidOf(s string) int32 {
	if i, ok := r.tidIdx[s]; ok {
		return i
	}
	i := int32(len(r.tids))
	r.tids = append(r.tids, s)
	if len(r.tidIdx) < maxNames {
		r.tidIdx[s] = i
	}
	return i
}

func (r *torchReader) device(a *tevArgs) (string, int, string) {
	id := a.Device
	if !id.set {
		id = a.InDevice
	}
	idx := -1
	if n, err := strconv.Atoi(id.s); err == nil {
		idx = n
	}
	d, ok := r.devices[id.s]
	if !ok && id.set && !r.devSeen && len(r.unresolved) < maxUnresolved {
		if r.unresolved == nil {
			r.unresolved = map[string]struct{}{}
		}
		r.unresolved[id.s] = struct{}{}
	}
	return d.name, idx, d.cc
}
