package ingest

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/safe"
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
	Ts, Dur       usTime
	Args          tevArgs
}

type tevArgs struct {
	Device, InDevice, Context, Stream, Correlation jid
	Registers, SharedMem, Bytes                    jnum
	Grid, Block                                    []int64
}

type interner struct {
	m map[string]string
	// recent is a direct-mapped cache of the strings got, by a cheap hash
	// of their bytes, before the map: a trace repeats its categories,
	// threads and names event after event.
	recent [1 << internBits]struct{ key, val string }
}

// internBits sizes the cache; strings longer than maxRecent are not
// cached, which bounds what it holds.
const (
	internBits = 10
	maxRecent  = 4 << 10
)

func (t *interner) get(b []byte) string {
	e := &t.recent[recentSlot(b)]
	if e.key == string(b) && e.val != "" {
		return e.val
	}
	s, ok := t.m[string(b)]
	if !ok {
		s = t.str(string(b))
	}
	if len(b) <= maxRecent {
		e.key, e.val = s, s
		if s != string(b) {
			e.key = string(b) // made safe to print: kept under its bytes
		}
	}
	return s
}

// recentSlot hashes a string's length and its first, middle and last
// eight bytes.
func recentSlot(b []byte) int {
	n := len(b)
	h := uint64(n)
	if n >= 8 {
		h ^= binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n/2-4:]), 21) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 43)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	return int((h * 0x9E3779B97F4A7C15) >> (64 - internBits))
}

func (t *interner) str(s string) string {
	if v, ok := t.m[s]; ok {
		return v
	}
	if safe.Needed([]byte(s)) {
		s = safe.Term(s)
	}
	if len(t.m) < maxNames {
		t.m[s] = s
	}
	return s
}

// jid is an identifier that PyTorch writes as a number or a string
// ("pid": 0, "tid": "stream 7", "pid": "Spans").
type jid struct {
	s   string
	n   int64 // a number read by corrVal
	num bool
	set bool
}

// text is the identifier as printed.
func (v jid) text() string {
	if v.num {
		return strconv.FormatInt(v.n, 10)
	}
	return v.s
}

// int is the identifier as a number, when it is one.
func (v jid) int() (int64, bool) {
	if v.num {
		return v.n, true
	}
	n, err := strconv.ParseInt(v.s, 10, 64)
	return n, err == nil
}

// jnum is a number that may be absent.
type jnum struct {
	v   float64
	set bool
}

// usTime is a time in microseconds kept in integer nanoseconds: Kineto
// writes absolute times ("ts": 1732611234567890.123) whose nanoseconds a
// float64 would lose.
type usTime struct {
	ns  int64
	set bool
}

// Bounds of a trace's times, so that no sum or difference of two of them
// wraps around int64 nanoseconds: a time is within maxTimeNS of 0 (146
// years of Kineto's microseconds since 1970), an event starts within
// maxSpanNS of the trace's first (73 years) and lasts at most as long.
// A time past them is no trace's: refused at its event.
const (
	maxTimeNS = 1 << 62
	maxSpanNS = 1 << 61
)

// parseUS reads a number of microseconds into nanoseconds: the digits
// past the third after the point are dropped.
func parseUS(b []byte) (int64, error) {
	if bytes.IndexByte(b, 'e') >= 0 || bytes.IndexByte(b, 'E') >= 0 {
		f, err := strconv.ParseFloat(string(b), 64)
		if err != nil || math.Abs(f*1e3) >= maxTimeNS {
			return 0, fmt.Errorf("time %.20s out of range", b)
		}
		return int64(math.Round(f * 1e3)), nil
	}
	// The lexer checked the grammar: -?digits(.digits)?
	i, neg := 0, len(b) > 0 && b[0] == '-'
	if neg {
		i++
	}
	var us int64
	for ; i < len(b) && b[i] != '.'; i++ {
		if us = us*10 + int64(b[i]-'0'); us > math.MaxInt64/1000 {
			return 0, fmt.Errorf("time %.20s out of range", b)
		}
	}
	ns := us * 1000
	if i < len(b) {
		for k, scale := i+1, int64(100); k < len(b) && scale > 0; k, scale = k+1, scale/10 {
			ns += int64(b[k]-'0') * scale
		}
	}
	if ns >= maxTimeNS {
		return 0, fmt.Errorf("time %.20s out of range", b)
	}
	if neg {
		ns = -ns
	}
	return ns, nil
}

// The values of an event, each read after its key: a wrong type is an
// error at its byte.

// value reads a scalar for the key what: kind 's' (a string), 'n' (a
// number) or 0 (null); any other, or a kind not in accept, is an error
// that says it wants want.
func (r *torchReader) value(what, want, accept string) (kind byte, text []byte, at int64, err error) {
	c, ok := r.lex.peek()
	at = r.lex.offset()
	if !ok {
		return 0, nil, at, r.lex.eof()
	}
	text, err = r.lex.scalarAt(c)
	if err != nil {
		return 0, nil, at, err
	}
	switch {
	case c == '"':
		kind = 's'
	case c == '-' || c >= '0' && c <= '9':
		kind = 'n'
	case c == 'n':
		return 0, nil, at, nil
	}
	if kind == 0 || !accepts(accept, kind) {
		if c == '{' || c == '[' {
			text = []byte{c}
		}
		return 0, nil, at, r.lex.errorf(at, "%q is %s, not %s", what, want, quoteLit(c, text))
	}
	return kind, text, at, nil
}

// accepts reports whether kind is one of the kinds in accept.
func accepts(accept string, kind byte) bool {
	for i := 0; i < len(accept); i++ {
		if accept[i] == kind {
			return true
		}
	}
	return false
}

func quoteLit(kind byte, text []byte) string {
	if kind == '"' {
		return strconv.Quote(string(text))
	}
	return string(text)
}

func (r *torchReader) strVal(what string) (string, error) {
	kind, text, _, err := r.value(what, "a string", "s")
	if err != nil || kind == 0 {
		return "", err
	}
	return r.tab.get(text), nil
}

func (r *torchReader) idVal(what string) (jid, error) {
	kind, text, _, err := r.value(what, "a number or a string", "sn")
	if err != nil || kind == 0 {
		return jid{}, err
	}
	return jid{s: r.tab.get(text), set: true}, nil
}

// corrVal reads an identifier unique to its event (a correlation, a flow
// ID): a number is kept as one, not interned.
func (r *torchReader) corrVal(what string) (jid, error) {
	kind, text, _, err := r.value(what, "a number or a string", "sn")
	switch {
	case err != nil || kind == 0:
		return jid{}, err
	case kind == 's':
		return jid{s: safe.Term(string(text)), set: true}, nil
	}
	if n, perr := strconv.ParseInt(string(text), 10, 64); perr == nil {
		return jid{n: n, num: true, set: true}, nil
	}
	return jid{s: string(text), set: true}, nil
}

// numVal reads a number; Kineto writes "inf" and "N/A" as strings where
// a number is undefined, which read as absent.
func (r *torchReader) numVal(what string) (jnum, error) {
	kind, text, at, err := r.value(what, "a number", "sn")
	if err != nil || kind != 'n' {
		return jnum{}, err
	}
	f, perr := strconv.ParseFloat(string(text), 64)
	if perr != nil || math.IsInf(f, 0) {
		return jnum{}, r.lex.errorf(at, "%q: %s out of range", what, text)
	}
	return jnum{f, true}, nil
}

func (r *torchReader) timeVal(what string) (usTime, error) {
	kind, text, at, err := r.value(what, "a number of microseconds", "n")
	if err != nil || kind == 0 {
		return usTime{}, err
	}
	ns, perr := parseUS(text)
	if perr != nil {
		return usTime{}, r.lex.errorf(at, "%q: %v", what, perr)
	}
	return usTime{ns, true}, nil
}

// dimVal reads a grid or block: an array of integers.
func (r *torchReader) dimVal(what string, into []int64) ([]int64, error) {
	l := r.lex
	c, ok := l.peek()
	if !ok {
		return nil, l.eof()
	}
	if c == 'n' {
		_, err := l.literal()
		return nil, err
	}
	if c != '[' {
		return nil, l.errorf(l.offset(), "%q is an array of integers, not %s", what, quoteByte(c))
	}
	l.pos++
	into = into[:0]
	more, err := l.first(']')
	for more && err == nil {
		kind, text, at, serr := r.value(what, "an array of integers", "n")
		if serr != nil {
			return nil, serr
		}
		v, perr := strconv.ParseInt(string(text), 10, 64)
		if kind == 0 || perr != nil {
			return nil, l.errorf(at, "%q holds %s, not an integer", what, quoteLit('n', text))
		}
		if len(into) == 8 {
			return nil, l.errorf(at, "%q has more than 8 dimensions", what)
		}
		into = append(into, v)
		more, err = l.more(']')
	}
	return into, err
}

// readEvent reads one event object into r.ev.
func (r *torchReader) readEvent() error {
	r.grid, r.block = r.ev.Args.Grid[:0], r.ev.Args.Block[:0]
	r.ev = tev{}
	return r.object("an event", r.eventKey)
}

// eventKey reads the value of one key of an event.
func (r *torchReader) eventKey(k []byte) error {
	e := &r.ev
	var err error
	switch string(k) {
	case "ph":
		e.Ph, err = r.strVal("ph")
	case "cat":
		e.Cat, err = r.strVal("cat")
	case "name":
		e.Name, err = r.strVal("name")
	case "pid":
		e.Pid, err = r.idVal("pid")
	case "tid":
		e.Tid, err = r.idVal("tid")
	case "id":
		e.ID, err = r.corrVal("id")
	case "ts":
		e.Ts, err = r.timeVal("ts")
	case "dur":
		e.Dur, err = r.timeVal("dur")
	case "args":
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
	default:
		err = r.lex.skip()
	}
	return err
}

// hostRec is an aten op or a Python frame, kept compactly to find the
// ones around a kept call.
// 16 bytes: a gigabyte trace holds a million ops.
type hostRec struct {
	start int64  // ns
	dur   uint32 // ns; a longer one (above 4.29 s) is kept in torchReader.long
	meta  uint32 // index in torchReader.names << 8 | thread (threads past the 255th share 255)
}

func (h hostRec) name() int32 { return int32(h.meta >> 8) }
func (h hostRec) tid() int32  { return int32(h.meta & 0xff) }

// newHostRec packs a record; long keeps the durations that do not fit.
func newHostRec(start, dur int64, name, tid int32, long map[[2]int64]int64) hostRec {
	h := hostRec{start: start, meta: uint32(name)<<8 | uint32(min(tid, 255))}
	if dur >= math.MaxUint32 {
		h.dur = math.MaxUint32
		long[[2]int64{start, int64(h.meta)}] = dur
	} else {
		h.dur = uint32(dur)
	}
	return h
}

// end is the record's end, in ns.
func (h hostRec) end(long map[[2]int64]int64) int64 {
	if h.dur == math.MaxUint32 {
		return h.start + long[[2]int64{h.start, int64(h.meta)}]
	}
	return h.start + int64(h.dur)
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
	pytorch     bool // a PyTorch header field or event was met
	origin      int64
	hasOrig     bool
	devices     map[string]torchDevice
	api         map[string]*profan.APICall
	apiOrder    []string
	ops         []hostRec
	frames      []hostRec // the user's frames only
	hostSide              // the launching threads' spans (torch_host.go)
	long        map[[2]int64]int64
	user        []bool // by name index: a frame of the user's code
	names       []string
	nameIdx     map[string]int32
	tids        []string
	tidIdx      map[string]int32
	kept        []*profan.HostEvent
	hostLo      int64
	hostHi      int64
	hostSeen    bool
	corr        int // kernels without a correlation: numbered in order
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
}

const maxUnresolved = 64

// launchRec is when a launch call queued its work; a graph's stays for
// all its kernels, a kernel launch's is dropped once its kernel came.
type launchRec struct {
	t     int64
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
	return &syntaxError{File: r.src, Line: r.in.lineAt(off), Msg: fmt.Sprintf("byte %d: ", off) + fmt.Sprintf(format, args...)}
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
	r.s.acct.Skipped = append(r.s.acct.Skipped, profan.SkipCount{Rule: rule, Lines: 1, First: r.in.lineAt(off)})
}

// events reads the traceEvents array, one event at a time.
func (r *torchReader) events() error {
	l := r.lex
	if err := l.expect('[', "\"traceEvents\" is an array"); err != nil {
		return err
	}
	more, err := l.first(']')
	for more && err == nil {
		l.peek()
		off := l.offset()
		if err := r.readEvent(); err != nil {
			return err
		}
		r.s.acct.Rows++
		if err := r.event(off); err != nil {
			return err
		}
		more, err = l.more(']')
	}
	return err
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
		r.origin, r.hasOrig = r.ev.Ts.ns, true
	}
	if e := &r.ev; e.Ts.ns-r.origin > maxSpanNS || r.origin-e.Ts.ns > maxSpanNS || e.Dur.ns > maxSpanNS {
		return r.errorAt(off, "%q: starts %.4g s from the trace's first event, or lasts %.4g s: more than %.0f years, not one trace's times", e.Name,
			float64(e.Ts.ns-r.origin)/1e9, float64(e.Dur.ns)/1e9, maxSpanNS/1e9/(365.25*86400))
	}
	return r.file(cat, off)
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
	cat, ok := torchCats[e.Cat]
	if !ok {
		cat, ok = torchCats[strings.ToLower(e.Cat)]
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
	if !e.Ts.set || !e.Dur.set {
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
		r.host(e.Ts.ns, e.Dur.ns)
		return r.call(cat, off)
	case catOp, catFrame:
		r.host(e.Ts.ns, e.Dur.ns)
		if cat == catOp {
			r.s.run.Host.Ops++
			r.ops = append(r.ops, newHostRec(e.Ts.ns, e.Dur.ns, r.nameOf(e.Name), r.tidOf(e.Tid.s), r.long))
		} else {
			// Only the frames of the user's code are kept: the ones a
			// call is attributed to.
			r.s.run.Host.Frames++
			if n := r.nameOf(e.Name); r.user[n] {
				r.frames = append(r.frames, newHostRec(e.Ts.ns, e.Dur.ns, n, r.tidOf(e.Tid.s), r.long))
			} else if m := hostRead(e.Name); m != "" {
				r.reads = append(r.reads, newHostRec(e.Ts.ns, e.Dur.ns, r.nameOf(m), r.tidOf(e.Tid.s), r.long))
			}
		}
	case catAnnotation:
		r.host(e.Ts.ns, e.Dur.ns)
		r.keep(&profan.HostEvent{Kind: profan.HostAnnotation, Name: e.Name, Start: r.sec(e.Ts.ns), Duration: float64(e.Dur.ns) / 1e9, Thread: e.Tid.s})
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

func (r *torchReader) kernel(off int64) error {
	e := &r.ev
	k := profan.NewKernel()
	k.Name = e.Name
	k.Demangled = demangled(k.Name)
	k.ID = e.Args.Correlation.text()
	if k.ID == "" {
		k.ID = "n" + strconv.Itoa(r.corr)
		r.corr++
	}
	k.Device, k.DeviceIndex, k.CC = r.device(&e.Args)
	k.Context, k.Stream, k.Process = e.Args.Context.s, e.Args.Stream.s, e.Pid.s
	if k.Stream == "" {
		k.Stream = strings.TrimPrefix(e.Tid.s, "stream ")
	}
	k.Start, k.Duration = r.sec(e.Ts.ns), float64(e.Dur.ns)/1e9
	corr, isNum := e.Args.Correlation.int()
	if isNum {
		if err := r.kernelCorr(corr, k.Name, off); err != nil {
			return err
		}
		if l, ok := r.launched[corr]; ok {
			k.Launched = r.sec(l.t)
			if !l.graph {
				delete(r.launched, corr)
			}
		}
	}
	dim := func(v []int64, what string) (profan.Dim3, error) {
		var d profan.Dim3
		if v == nil {
			return d, nil
		}
		if len(v) != 3 {
			return d, r.errorAt(off, "%q: %s has %d dimensions, not 3", k.Name, what, len(v))
		}
		for i, x := range v {
			if x < 0 || x > math.MaxInt32 {
				return d, r.errorAt(off, "%q: %s dimension %d out of range", k.Name, what, x)
			}
			d[i] = int(x)
		}
		return d, nil
	}
	var err error
	if k.Grid, err = dim(e.Args.Grid, "grid"); err != nil {
		return err
	}
	if k.Block, err = dim(e.Args.Block, "block"); err != nil {
		return err
	}
	if e.Args.Registers.set {
		if v := e.Args.Registers.v; v < 0 || v > 1<<16 || v != math.Trunc(v) {
			return r.errorAt(off, "%q: %v registers per thread", k.Name, v)
		}
		k.Registers = int(e.Args.Registers.v)
	}
	if e.Args.SharedMem.set {
		if e.Args.SharedMem.v < 0 {
			return r.errorAt(off, "%q: negative shared memory", k.Name)
		}
		// Kineto writes the static and dynamic shared memory summed.
		k.StaticSMem = e.Args.SharedMem.v
	}
	if !isNum || !math.IsNaN(k.Launched) || len(r.launched) >= maxLaunched {
		return r.t.Kernel(k, r.in.lineAt(off))
	}
	if len(r.pending) == maxPending {
		if err := r.flush(1); err != nil {
			return err
		}
	}
	r.pending = append(r.pending, pendingKernel{k, corr, r.in.lineAt(off)})
	return nil
}

// flush hands the first n pending kernels to the sink.
func (r *torchReader) flush(n int) error {
	for _, p := range r.pending[:n] {
		if err := r.t.Kernel(p.k, p.line); err != nil {
			return err
		}
	}
	r.pending = append(r.pending[:0], r.pending[n:]...)
	return nil
}

// launch notes when a launch call queued its work, for its kernels to
// come and the ones pending.
func (r *torchReader) launch(corr, t int64, graph bool) error {
	met := false
	done := 0
	for i, p := range r.pending {
		if p.corr == corr {
			p.k.Launched = r.sec(t)
			met = true
		}
		if !math.IsNaN(p.k.Launched) && done == i {
			done++
		}
	}
	if (graph || !met) && len(r.launched) < maxLaunched {
		r.launched[corr] = launchRec{t, graph}
	}
	if done > 0 {
		return r.flush(done)
	}
	return nil
}

func (r *torchReader) activity(cat int, off int64) error {
	e := &r.ev
	a := &profan.Activity{Name: e.Name, Start: r.sec(e.Ts.ns), Duration: float64(e.Dur.ns) / 1e9,
		Throughput: math.NaN(), Stream: e.Args.Stream.s, Correlation: e.Args.Correlation.text(), Invocations: 1}
	name, idx, _ := r.device(&e.Args)
	switch {
	case idx >= 0 && name != "":
		a.Device = name + " (" + strconv.Itoa(idx) + ")"
	case idx >= 0:
		a.Device = "device " + strconv.Itoa(idx)
	}
	if !e.Args.Bytes.set {
		// PyTorch writes every copy's and memset's size with its device
		// and stream: without them the activity lost its args.
		return r.errorAt(off, "a %q event without \"bytes\" in its args (its args lost?)", e.Cat)
	}
	a.Bytes = e.Args.Bytes.v
	if a.Duration > 0 {
		a.Throughput = a.Bytes / a.Duration
	}
	if cat == catSet {
		a.Kind = "memset"
	} else {
		// "Memcpy HtoD (Pageable -> Device)"
		dir, kinds, _ := strings.Cut(strings.TrimPrefix(a.Name, "Memcpy "), " (")
		a.Kind = "memcpy " + r.tab.str(dir)
		if src, dst, ok := strings.Cut(strings.TrimSuffix(kinds, ")"), " -> "); ok {
			a.SrcMemType, a.DstMemType = r.tab.str(src), r.tab.str(dst)
		}
	}
	r.t.row.Line = r.in.lineAt(off)
	return r.t.Activity(a)
}

// call sums a runtime or driver call by name, and keeps the ones that
// can hold the GPU idle.
func (r *torchReader) call(cat int, off int64) error {
	e := &r.ev
	c := r.api[e.Name]
	d := float64(e.Dur.ns) / 1e9
	if c == nil {
		if len(r.api) >= maxNames {
			return r.errorAt(r.lex.offset(), "more than %d distinct CUDA call names (not a profiler trace?)", maxNames)
		}
		c = &profan.APICall{Name: e.Name, Min: d, Max: d}
		r.api[e.Name] = c
		r.apiOrder = append(r.apiOrder, e.Name)
	}
	c.Calls++
	c.Total += d
	c.Min, c.Max = math.Min(c.Min, d), math.Max(c.Max, d)
	cls := profan.CallClass(e.Name)
	if n, ok := e.Args.Correlation.int(); ok && cls != profan.CallLaunch {
		if err := r.otherCallCorr(n, off); err != nil {
			return err
		}
	}
	switch cls {
	case profan.CallLaunch:
		r.s.run.Host.Launches++
		r.launcher(e.Tid.s)
		if c, ok := e.Args.Correlation.int(); ok {
			// A kernel is queued when its launch call returns; a graph's
			// kernels start while cudaGraphLaunch still runs (hundreds of
			// microseconds), from its start on.
			t := e.Ts.ns + e.Dur.ns
			graph := strings.Contains(e.Name, "GraphLaunch")
			if graph {
				t = e.Ts.ns
			}
			if err := r.callCorr(c, graph, off); err != nil {
				return err
			}
			if err := r.launch(c, t, graph); err != nil {
				return err
			}
		}
	case profan.CallSync, profan.CallCopy, profan.CallSet, profan.CallAlloc:
		kind := profan.HostRuntime
		if cat == catDriver {
			kind = profan.HostDriver
		}
		r.keep(&profan.HostEvent{Kind: kind, Name: e.Name, Start: r.sec(e.Ts.ns), Duration: d, Thread: e.Tid.s, Correlation: e.Args.Correlation.text()})
	}
	return nil
}

// keep keeps a host event one by one, up to MaxHostEvents.
func (r *torchReader) keep(h *profan.HostEvent) {
	if len(r.kept) >= profan.MaxHostEvents {
		r.s.run.Host.Folded++
		return
	}
	r.kept = append(r.kept, h)
}

// finish sums the calls into the run, places each kept call in the op
// and frame around it, and drops the ops and frames.
func (r *torchReader) finish() {
	run := r.s.run
	for _, n := range r.apiOrder {
		c := r.api[n]
		if c.Calls > 0 {
			c.Avg = c.Total / float64(c.Calls)
		}
		run.APICalls = append(run.APICalls, c)
	}
	if r.hostSeen {
		run.Host.Start, run.Host.End = r.sec(r.hostLo), r.sec(r.hostHi)
	}
	calls := make([]*profan.HostEvent, 0, len(r.kept))
	for _, h := range r.kept {
		if h.Kind != profan.HostAnnotation {
			calls = append(calls, h)
		}
	}
	slices.SortStableFunc(calls, func(x, y *profan.HostEvent) int { return cmp.Compare(x.Start, y.Start) })
	at := func(h *profan.HostEvent) (int64, int32) {
		return int64(math.Round(h.Start*1e9)) + r.origin, min(r.tidIdx[h.Thread], 255)
	}
	// The op the user called: the outermost aten op around the call
	// (aten::item around aten::_local_scalar_dense).
	enclose(r.ops, calls, at, r.long, func(h *profan.HostEvent, stack []hostRec) {
		if len(stack) > 0 {
			h.Op = r.names[stack[0].name()]
		}
	})
	// The innermost frame of the user's code around it: a file that is
	// not PyTorch's own or an installed package's.
	enclose(r.frames, calls, at, r.long, func(h *profan.HostEvent, stack []hostRec) {
		for i := len(stack) - 1; i >= 0; i-- {
			if n := r.names[stack[i].name()]; userFrame(n) {
				h.Frame = n
				return
			}
		}
	})
	r.spans(calls)
	run.Host.Events = r.kept
	if run.Host.Folded > 0 {
		r.t.note(0, "host calls", "more than %d synchronising, copy and memset calls: the later %d are summed by name, not kept one by one", profan.MaxHostEvents, run.Host.Folded)
	}
	r.ops, r.frames, r.names, r.reads = nil, nil, nil, nil
}

// enclose walks the records (aten ops or Python frames) and the calls in
// time order, keeping each thread's stack of the records open, and hands
// each call the stack of its thread at its start, outermost first.
func enclose(recs []hostRec, calls []*profan.HostEvent, at func(*profan.HostEvent) (int64, int32), long map[[2]int64]int64, visit func(*profan.HostEvent, []hostRec)) {
	slices.SortFunc(recs, func(x, y hostRec) int {
		return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(y.end(long), x.end(long)))
	})
	stacks := map[int32][]hostRec{}
	pop := func(tid int32, t int64) []hostRec {
		st := stacks[tid]
		for len(st) > 0 && st[len(st)-1].end(long) < t {
			st = st[:len(st)-1]
		}
		stacks[tid] = st
		return st
	}
	i := 0
	for _, c := range calls {
		t, tid := at(c)
		for ; i < len(recs) && recs[i].start <= t; i++ {
			x := recs[i]
			stacks[x.tid()] = append(pop(x.tid(), x.start), x)
		}
		visit(c, pop(tid, t))
	}
}

// userFrame reports a Python frame of the user's code.
func userFrame(name string) bool {
	file, _, ok := strings.Cut(name, ".py(")
	return ok && !strings.HasPrefix(file, "torch/") && !strings.Contains(file, "site-packages/") && !strings.Contains(file, "dist-packages/") && !strings.HasPrefix(file, "<")
}

// jsonSource hands the decoder the decoded text of the export, hashing
// it as the line reader does (each line without its CR LF, then LF) and
// counting its lines, so that a byte offset can be told as a line.
type jsonSource struct {
	src   string
	br    *bufio.Reader
	h     interface{ Write([]byte) (int, error) }
	th    textHash // hashes into h
	n     int64    // bytes handed out
	lines int      // line ends handed out
	// marks are the offsets of the line ends handed out, the last ones
	// only: lineAt looks up recent offsets (the decoder's errors).
	marks [16384]int64
	nm    int
	done  bool
	// aside hashes the chunks handed out on a goroutine of its own, in
	// order, from copies taken from spare: the parse does not wait for
	// the digest (a second of a gigabyte's). It starts at the first chunk
	// and stops at the end of the input, or when the reader does.
	aside  chan []byte
	spare  chan []byte
	hashed chan struct{}
}

// asideChunks bounds the chunks waiting to be hashed.
const asideChunks = 4

// hashAside hands a copy of chunk to the hashing goroutine.
func (j *jsonSource) hashAside(chunk []byte) {
	if j.h == nil {
		return
	}
	if j.aside == nil {
		j.aside, j.spare, j.hashed = make(chan []byte, asideChunks), make(chan []byte, asideChunks), make(chan struct{})
		for range asideChunks {
			j.spare <- nil
		}
		go func() {
			for b := range j.aside {
				j.th.write(b)
				j.spare <- b
			}
			close(j.hashed)
		}()
	}
	j.aside <- append((<-j.spare)[:0], chunk...)
}

// stop waits until the chunks handed out are hashed.
func (j *jsonSource) stop() {
	if j.aside != nil {
		close(j.aside)
		<-j.hashed
		j.aside = nil
	}
}

func (j *jsonSource) Read(p []byte) (int, error) {
	n, err := j.br.Read(p)
	if n > 0 {
		chunk := p[:n]
		if bytes.IndexByte(chunk, 0) >= 0 {
			off := j.n + int64(bytes.IndexByte(chunk, 0))
			return 0, &syntaxError{File: j.src, Line: j.lines + bytes.Count(chunk[:off-j.n], newline) + 1, Msg: fmt.Sprintf("byte %d: binary data (NUL byte): not a trace", off)}
		}
		for i := 0; ; {
			k := bytes.IndexByte(chunk[i:], '\n')
			if k < 0 {
				break
			}
			j.marks[j.nm%len(j.marks)] = j.n + int64(i+k)
			j.nm++
			j.lines++
			i += k + 1
		}
		j.hashAside(chunk)
		j.n += int64(n)
	}
	if err == io.EOF && !j.done {
		j.done = true
		j.stop()
		j.th.end() // the digest of a file without its last line end
		if j.n > 0 && j.lastNL() != j.n-1 {
			j.lines++
		}
	}
	if de := decodeError(j.src, j.lines+1, err); de != nil {
		return n, de
	}
	return n, err
}

func (j *jsonSource) lastNL() int64 {
	if j.nm == 0 {
		return -1
	}
	return j.marks[(j.nm-1)%len(j.marks)]
}

// lineAt is the 1-based line of byte off, when off is among the recent
// line ends kept; else 0.
func (j *jsonSource) lineAt(off int64) int {
	lo := max(0, j.nm-len(j.marks))
	at := func(k int) int64 { return j.marks[k%len(j.marks)] }
	if j.nm > 0 && lo > 0 && off <= at(lo) {
		return 0
	}
	// line = 1 + the line ends before off: the marks kept are sorted.
	k := lo + sort.Search(j.nm-lo, func(i int) bool { return at(lo+i) >= off })
	return k + 1
}
