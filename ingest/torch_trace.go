package ingest

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
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
// It streams: encoding/json's Decoder walks the document by tokens and
// decodes one event at a time. Kernels go to the sink as they come;
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
	SkipTorchMeta    = "trace metadata event (ph M: process and thread names)"
	SkipTorchInstant = "instant or counter event"
	SkipTorchOther   = "event of a category profan does not read"
	SkipTorchNoCat   = "event without a category"
	SkipTorchKey     = "header field profan does not read"
)

// tev is one event as decoded; reused, reset before each event.
type tev struct {
	Ph   istr    `json:"ph"`
	Cat  istr    `json:"cat"`
	Name istr    `json:"name"`
	Pid  jid     `json:"pid"`
	Tid  jid     `json:"tid"`
	Ts   usTime  `json:"ts"`
	Dur  usTime  `json:"dur"`
	ID   jid     `json:"id"`
	Args tevArgs `json:"args"`
}

type tevArgs struct {
	Device      jid     `json:"device"`
	InDevice    jid     `json:"inDevice"`
	Context     jid     `json:"context"`
	Stream      jid     `json:"stream"`
	Correlation jid     `json:"correlation"`
	Registers   jnum    `json:"registers per thread"`
	SharedMem   jnum    `json:"shared memory"`
	Grid        []int64 `json:"grid"`
	Block       []int64 `json:"block"`
	Bytes       jnum    `json:"bytes"`
}

// istr is a string read through the trace's intern table (names repeat:
// a million launches of a few hundred kernels).
type istr struct {
	s   string
	tab *interner
}

func (v *istr) UnmarshalJSON(b []byte) error {
	if len(b) >= 2 && b[0] == '"' && bytes.IndexByte(b, '\\') < 0 {
		v.s = v.tab.get(b[1 : len(b)-1])
		return nil
	}
	if string(b) == "null" {
		v.s = ""
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v.s = v.tab.str(s)
	return nil
}

type interner struct{ m map[string]string }

func (t *interner) get(b []byte) string {
	if s, ok := t.m[string(b)]; ok {
		return s
	}
	return t.str(string(b))
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
	set bool
}

func (v *jid) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		v.s, v.set = safe.Term(s), true
	case b[0] == '-' || b[0] >= '0' && b[0] <= '9':
		v.s, v.set = string(b), true
	default:
		return fmt.Errorf("an identifier is a number or a string, not %.20s", b)
	}
	return nil
}

// jnum is a number that may be absent.
type jnum struct {
	v   float64
	set bool
}

func (v *jnum) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if b[0] == '"' {
		// Kineto writes "inf" and "N/A" as strings where a number is
		// undefined.
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("not a number: %.20s", b)
	}
	v.v, v.set = f, true
	return nil
}

// usTime is a time in microseconds kept in integer nanoseconds: Kineto
// writes absolute times ("ts": 1732611234567890.123) whose nanoseconds a
// float64 would lose.
type usTime struct {
	ns  int64
	set bool
}

func (v *usTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || !(b[0] == '-' || b[0] >= '0' && b[0] <= '9') {
		return fmt.Errorf("a time is a number of microseconds, not %.20s", b)
	}
	s := string(b)
	if strings.ContainsAny(s, "eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Abs(f) > 9e12*1e3 {
			return fmt.Errorf("time %.20s out of range", b)
		}
		v.ns, v.set = int64(math.Round(f*1e3)), true
		return nil
	}
	ip, fp, _ := strings.Cut(s, ".")
	i, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || i > math.MaxInt64/1000 || i < math.MinInt64/1000 {
		return fmt.Errorf("time %.20s out of range", b)
	}
	ns := i * 1000
	if fp != "" {
		fp = (fp + "000")[:3]
		f, err := strconv.Atoi(fp)
		if err != nil {
			return fmt.Errorf("time %.20s is no number", b)
		}
		if ip[0] == '-' {
			f = -f
		}
		ns += int64(f)
	}
	v.ns, v.set = ns, true
	return nil
}

// hostRec is an aten op or a Python frame, kept compactly to find the
// ones around a kept call.
type hostRec struct {
	start, end int64 // ns
	name       int32 // index in torchReader.names
	tid        int32 // index in torchReader.tids
}

// torchReader is the state of one trace's reading.
type torchReader struct {
	s        *stream
	t        *Table
	src      string
	dec      *json.Decoder
	in       *jsonSource
	tab      interner
	ev       tev
	pytorch  bool // a PyTorch header field or event was met
	origin   int64
	hasOrig  bool
	devices  map[string]torchDevice
	api      map[string]*profan.APICall
	apiOrder []string
	ops      []hostRec
	frames   []hostRec
	names    []string
	nameIdx  map[string]int32
	tids     []string
	tidIdx   map[string]int32
	kept     []*profan.HostEvent
	hostLo   int64
	hostHi   int64
	hostSeen bool
	corr     int // kernels without a correlation: numbered in order
	// launched is when each launch call queued its work, by correlation, for
	// the kernels that come after their call (Kineto writes the host's
	// events first); bounded by maxLaunched.
	launched map[int64]int64
	// pending are kernels met before their launch call (a graph's:
	// Kineto writes cudaGraphLaunch after the kernels that start while it
	// runs), held until it comes, at most maxPending.
	pending []pendingKernel
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
	r := &torchReader{s: s, t: &Table{s: s}, src: s.src, tab: interner{m: map[string]string{}},
		devices: map[string]torchDevice{}, api: map[string]*profan.APICall{},
		nameIdx: map[string]int32{}, tidIdx: map[string]int32{}, launched: map[int64]int64{}}
	r.ev.Ph.tab, r.ev.Cat.tab, r.ev.Name.tab = &r.tab, &r.tab, &r.tab
	r.in = &jsonSource{src: s.src, br: s.lr.br, h: s.lr.h}
	r.dec = json.NewDecoder(r.in)
	s.run.Tool = profan.ToolTorch
	s.run.Host = &profan.Host{Start: math.NaN(), End: math.NaN(), Rank: -1}
	if err := r.document(); err != nil {
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
	return &SyntaxError{File: r.src, Line: r.in.lineAt(off), Msg: fmt.Sprintf("byte %d: ", off) + fmt.Sprintf(format, args...)}
}

// jsonErr turns a decoder's error into one at its byte; start is where
// the value being decoded began.
func (r *torchReader) jsonErr(err error, start int64) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var se *SyntaxError
	switch {
	case errors.As(err, &se):
		return se // the stream beneath (gzip, binary data)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return r.errorAt(r.in.n, "the trace ends in the middle of a JSON value (truncated file?)")
	case errors.As(err, &syn):
		return r.errorAt(max(start, syn.Offset), "not JSON: %s", syn.Error())
	case errors.As(err, &typ):
		return r.errorAt(start+typ.Offset, "%q holds a JSON %s where a PyTorch trace has a %s", typ.Field, typ.Value, typ.Type)
	}
	return r.errorAt(start, "in the event or value that starts here: %v", err)
}

func (r *torchReader) token() (json.Token, int64, error) {
	off := r.dec.InputOffset()
	tok, err := r.dec.Token()
	if err != nil {
		return nil, off, r.jsonErr(err, off)
	}
	return tok, off, nil
}

// document walks the top-level object.
func (r *torchReader) document() error {
	tok, off, err := r.token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return r.errorAt(off, "a JSON array or value, not the object PyTorch's trace is (a Chrome trace in array form, or not a trace)")
	}
	events := false
	for r.dec.More() {
		tok, off, err := r.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		switch key {
		case "traceEvents":
			if err := r.events(); err != nil {
				return err
			}
			events = true
		case "schemaVersion":
			var v json.Number
			if err := r.decode(&v); err != nil {
				return err
			}
			r.pytorch = true
			r.s.run.ToolVersion = "schema " + v.String()
		case "deviceProperties":
			if err := r.deviceProperties(); err != nil {
				return err
			}
			r.pytorch = true
		case "distributedInfo":
			var v struct {
				Rank      *int `json:"rank"`
				WorldSize *int `json:"world_size"`
			}
			if err := r.decode(&v); err != nil {
				return err
			}
			r.pytorch = true
			if v.Rank != nil {
				r.s.run.Host.Rank = *v.Rank
			}
			if v.WorldSize != nil {
				r.s.run.Host.WorldSize = *v.WorldSize
			}
		default:
			var skip json.RawMessage
			if err := r.decode(&skip); err != nil {
				return err
			}
			r.skip(SkipTorchKey, off)
		}
	}
	if _, _, err := r.token(); err != nil { // the closing brace
		return err
	}
	if off := r.dec.InputOffset(); r.trailing() {
		return r.errorAt(off, "data after the end of the trace's JSON object")
	}
	if !events {
		return r.errorAt(r.dec.InputOffset(), "a JSON object without \"traceEvents\": not a PyTorch profiler trace")
	}
	if !r.pytorch {
		return r.errorAt(0, "a Chrome trace without PyTorch's header (schemaVersion, deviceProperties) or events (cpu_op, kernel, cuda_runtime): not a PyTorch profiler trace")
	}
	return nil
}

// trailing reports whether anything but white space follows the object.
func (r *torchReader) trailing() bool {
	buf := r.dec.Buffered()
	for {
		var b [1]byte
		n, err := buf.Read(b[:])
		if n == 1 {
			if c := b[0]; c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return true
			}
			continue
		}
		if err != nil {
			break
		}
	}
	var b [512]byte
	for {
		n, err := r.in.Read(b[:])
		for _, c := range b[:n] {
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return true
			}
		}
		if err != nil {
			return false
		}
	}
}

// decode decodes the next value into v.
func (r *torchReader) decode(v any) error {
	off := r.valueStart()
	if err := r.dec.Decode(v); err != nil {
		return r.jsonErr(err, off)
	}
	return nil
}

// valueStart is the offset of the next value: past the white space,
// colon or comma after the decoder's offset.
func (r *torchReader) valueStart() int64 {
	off := r.dec.InputOffset()
	buf := r.dec.Buffered()
	var b [1]byte
	for {
		n, _ := buf.Read(b[:])
		if n == 0 {
			return off
		}
		switch b[0] {
		case ' ', '\t', '\n', '\r', ':', ',':
			off++
			continue
		}
		return off
	}
}

func (r *torchReader) deviceProperties() error {
	var props []struct {
		ID    *int   `json:"id"`
		Name  string `json:"name"`
		Major *int   `json:"computeMajor"`
		Minor *int   `json:"computeMinor"`
	}
	if err := r.decode(&props); err != nil {
		return err
	}
	for _, p := range props {
		if p.ID == nil {
			continue
		}
		d := torchDevice{name: safe.Term(p.Name)}
		if p.Major != nil && p.Minor != nil {
			d.cc = fmt.Sprintf("%d.%d", *p.Major, *p.Minor)
		}
		r.devices[strconv.Itoa(*p.ID)] = d
	}
	return nil
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
	tok, off, err := r.token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return r.errorAt(off, "\"traceEvents\" is not an array")
	}
	for r.dec.More() {
		off := r.valueStart()
		r.ev = tev{Ph: istr{tab: &r.tab}, Cat: istr{tab: &r.tab}, Name: istr{tab: &r.tab}}
		if err := r.dec.Decode(&r.ev); err != nil {
			return r.jsonErr(err, off)
		}
		r.s.acct.Rows++
		if err := r.event(off); err != nil {
			return err
		}
	}
	_, _, err = r.token()
	return err
}

// event files one decoded event.
func (r *torchReader) event(off int64) error {
	e := &r.ev
	switch e.Ph.s {
	case "M":
		r.skip(SkipTorchMeta, off)
		return nil
	case "i", "I", "C", "n", "R", "O", "N", "D":
		r.skip(SkipTorchInstant, off)
		return nil
	}
	if e.Cat.s == "" {
		if e.Ph.s == "X" && !r.pytorch {
			return r.errorAt(off, "a complete event without a category: PyTorch's events all have one (not a PyTorch profiler trace)")
		}
		r.skip(SkipTorchNoCat, off)
		return nil
	}
	cat, ok := torchCats[strings.ToLower(e.Cat.s)]
	if !ok {
		if !r.pytorch {
			return r.errorAt(off, "event category %q is not one PyTorch writes, and no PyTorch header came before it (a Chrome or Perfetto trace, not PyTorch's)", e.Cat.s)
		}
		r.skip(SkipTorchOther+" ("+e.Cat.s+")", off)
		return nil
	}
	r.pytorch = true
	switch cat {
	case catOther:
		r.skip(SkipTorchOther+" ("+e.Cat.s+")", off)
		return nil
	case catFlow:
		r.s.run.Host.Flows++
		return nil
	}
	if e.Ph.s != "X" {
		return r.errorAt(off, "a %q event with phase %q: PyTorch writes them as complete events (ph X)", e.Cat.s, e.Ph.s)
	}
	if !e.Ts.set || !e.Dur.set {
		return r.errorAt(off, "a %q event without \"ts\" or \"dur\"", e.Cat.s)
	}
	if e.Dur.ns < 0 {
		return r.errorAt(off, "%q: negative duration %d ns", e.Name.s, e.Dur.ns)
	}
	if e.Name.s == "" {
		return r.errorAt(off, "a %q event without a name", e.Cat.s)
	}
	if !r.hasOrig {
		r.origin, r.hasOrig = e.Ts.ns, true
	}
	switch cat {
	case catKernel:
		return r.kernel(off)
	case catCopy, catSet:
		return r.activity(cat, off)
	case catRuntime, catDriver:
		r.host(e.Ts.ns, e.Dur.ns)
		return r.call(cat)
	case catOp, catFrame:
		r.host(e.Ts.ns, e.Dur.ns)
		rec := hostRec{start: e.Ts.ns, end: e.Ts.ns + e.Dur.ns, name: r.nameOf(e.Name.s), tid: r.tidOf(e.Tid.s)}
		if cat == catOp {
			r.s.run.Host.Ops++
			r.ops = append(r.ops, rec)
		} else {
			r.s.run.Host.Frames++
			r.frames = append(r.frames, rec)
		}
	case catAnnotation:
		r.host(e.Ts.ns, e.Dur.ns)
		r.keep(&profan.HostEvent{Kind: profan.HostAnnotation, Name: e.Name.s, Start: r.sec(e.Ts.ns), Duration: float64(e.Dur.ns) / 1e9, Thread: e.Tid.s})
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
	i := int32(len(r.names))
	r.names = append(r.names, s)
	if len(r.nameIdx) < maxNames {
		r.nameIdx[s] = i
	}
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
	d := r.devices[id.s]
	return d.name, idx, d.cc
}

func (r *torchReader) kernel(off int64) error {
	e := &r.ev
	k := profan.NewKernel()
	k.Name = e.Name.s
	k.Demangled = demangled(k.Name)
	k.ID = e.Args.Correlation.s
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
	corr, cerr := strconv.ParseInt(k.ID, 10, 64)
	if cerr == nil {
		if end, ok := r.launched[corr]; ok {
			k.Launched = r.sec(end)
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
	if cerr != nil || !math.IsNaN(k.Launched) || len(r.launched) >= maxLaunched {
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
func (r *torchReader) launch(corr, t int64) error {
	if len(r.launched) < maxLaunched {
		r.launched[corr] = t
	}
	done := 0
	for i, p := range r.pending {
		if p.corr == corr {
			p.k.Launched = r.sec(t)
		}
		if !math.IsNaN(p.k.Launched) && done == i {
			done++
		}
	}
	if done > 0 {
		return r.flush(done)
	}
	return nil
}

func (r *torchReader) activity(cat int, off int64) error {
	e := &r.ev
	a := &profan.Activity{Name: e.Name.s, Start: r.sec(e.Ts.ns), Duration: float64(e.Dur.ns) / 1e9,
		Bytes: math.NaN(), Throughput: math.NaN(), Stream: e.Args.Stream.s, Correlation: e.Args.Correlation.s, Invocations: 1}
	name, idx, _ := r.device(&e.Args)
	switch {
	case idx >= 0 && name != "":
		a.Device = name + " (" + strconv.Itoa(idx) + ")"
	case idx >= 0:
		a.Device = "device " + strconv.Itoa(idx)
	}
	if e.Args.Bytes.set {
		a.Bytes = e.Args.Bytes.v
		if a.Duration > 0 {
			a.Throughput = a.Bytes / a.Duration
		}
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
func (r *torchReader) call(cat int) error {
	e := &r.ev
	c := r.api[e.Name.s]
	d := float64(e.Dur.ns) / 1e9
	if c == nil {
		if len(r.api) >= maxNames {
			return r.errorAt(r.dec.InputOffset(), "more than %d distinct CUDA call names (not a profiler trace?)", maxNames)
		}
		c = &profan.APICall{Name: e.Name.s, Min: d, Max: d}
		r.api[e.Name.s] = c
		r.apiOrder = append(r.apiOrder, e.Name.s)
	}
	c.Calls++
	c.Total += d
	c.Min, c.Max = math.Min(c.Min, d), math.Max(c.Max, d)
	switch profan.CallClass(e.Name.s) {
	case profan.CallLaunch:
		r.s.run.Host.Launches++
		if c, err := strconv.ParseInt(e.Args.Correlation.s, 10, 64); err == nil {
			// A kernel is queued when its launch call returns; a graph's
			// kernels start while cudaGraphLaunch still runs (hundreds of
			// microseconds), from its start on.
			t := e.Ts.ns + e.Dur.ns
			if strings.Contains(e.Name.s, "GraphLaunch") {
				t = e.Ts.ns
			}
			if err := r.launch(c, t); err != nil {
				return err
			}
		}
	case profan.CallSync, profan.CallCopy, profan.CallSet:
		kind := profan.HostRuntime
		if cat == catDriver {
			kind = profan.HostDriver
		}
		r.keep(&profan.HostEvent{Kind: kind, Name: e.Name.s, Start: r.sec(e.Ts.ns), Duration: d, Thread: e.Tid.s, Correlation: e.Args.Correlation.s})
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
		return int64(math.Round(h.Start*1e9)) + r.origin, r.tidIdx[h.Thread]
	}
	// The op the user called: the outermost aten op around the call
	// (aten::item around aten::_local_scalar_dense).
	enclose(r.ops, calls, at, func(h *profan.HostEvent, stack []hostRec) {
		if len(stack) > 0 {
			h.Op = r.names[stack[0].name]
		}
	})
	// The innermost frame of the user's code around it: a file that is
	// not PyTorch's own or an installed package's.
	enclose(r.frames, calls, at, func(h *profan.HostEvent, stack []hostRec) {
		for i := len(stack) - 1; i >= 0; i-- {
			if n := r.names[stack[i].name]; userFrame(n) {
				h.Frame = n
				return
			}
		}
	})
	run.Host.Events = r.kept
	if run.Host.Folded > 0 {
		r.t.note(0, "host calls", "more than %d synchronising, copy and memset calls: the later %d are summed by name, not kept one by one", profan.MaxHostEvents, run.Host.Folded)
	}
	r.ops, r.frames, r.names = nil, nil, nil
}

// enclose walks the records (aten ops or Python frames) and the calls in
// time order, keeping each thread's stack of the records open, and hands
// each call the stack of its thread at its start, outermost first.
func enclose(recs []hostRec, calls []*profan.HostEvent, at func(*profan.HostEvent) (int64, int32), visit func(*profan.HostEvent, []hostRec)) {
	slices.SortFunc(recs, func(x, y hostRec) int { return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(y.end, x.end)) })
	stacks := map[int32][]hostRec{}
	pop := func(tid int32, t int64) []hostRec {
		st := stacks[tid]
		for len(st) > 0 && st[len(st)-1].end < t {
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
			stacks[x.tid] = append(pop(x.tid, x.start), x)
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
	n     int64 // bytes handed out
	lines int   // line ends handed out
	cr    bool  // the last byte hashed was a CR, held back
	// marks are the offsets of the line ends handed out, the last ones
	// only: lineAt looks up recent offsets (the decoder's errors).
	marks [1024]int64
	nm    int
	done  bool
}

func (j *jsonSource) Read(p []byte) (int, error) {
	n, err := j.br.Read(p)
	if n > 0 {
		chunk := p[:n]
		if bytes.IndexByte(chunk, 0) >= 0 {
			off := j.n + int64(bytes.IndexByte(chunk, 0))
			return 0, &SyntaxError{File: j.src, Line: j.lines + bytes.Count(chunk[:off-j.n], newline) + 1, Msg: fmt.Sprintf("byte %d: binary data (NUL byte): not a trace", off)}
		}
		for i, c := range chunk {
			if c == '\n' {
				j.marks[j.nm%len(j.marks)] = j.n + int64(i)
				j.nm++
				j.lines++
			}
		}
		j.hash(chunk)
		j.n += int64(n)
	}
	if err == io.EOF && !j.done {
		j.done = true
		if j.cr {
			j.write([]byte{'\r'})
			j.cr = false
		}
		if j.n > 0 && j.lastNL() != j.n-1 {
			j.write(newline) // the digest of a file without its last line end
			j.lines++
		}
	}
	return n, err
}

func (j *jsonSource) lastNL() int64 {
	if j.nm == 0 {
		return -1
	}
	return j.marks[(j.nm-1)%len(j.marks)]
}

// hash writes chunk to the digest without the CR of each CR LF.
func (j *jsonSource) hash(chunk []byte) {
	if j.h == nil {
		return
	}
	if j.cr {
		if chunk[0] != '\n' {
			j.write([]byte{'\r'})
		}
		j.cr = false
	}
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\r')
		if i < 0 {
			j.write(chunk)
			return
		}
		j.write(chunk[:i])
		if i == len(chunk)-1 {
			j.cr = true
			return
		}
		if chunk[i+1] != '\n' {
			j.write(chunk[i : i+1])
		}
		chunk = chunk[i+1:]
	}
}

func (j *jsonSource) write(b []byte) {
	if j.h != nil {
		j.h.Write(b)
	}
}

// lineAt is the 1-based line of byte off, when off is among the recent
// line ends kept; else 0.
func (j *jsonSource) lineAt(off int64) int {
	lo := max(0, j.nm-len(j.marks))
	if j.nm > 0 && lo > 0 && off <= j.marks[lo%len(j.marks)] {
		return 0
	}
	// line = 1 + the line ends before off
	k := j.nm
	for k > lo && j.marks[(k-1)%len(j.marks)] >= off {
		k--
	}
	return k + 1
}
