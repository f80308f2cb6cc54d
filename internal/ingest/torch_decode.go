package ingest

import "strings"

// The events of a PyTorch trace are decoded on a goroutine of their own
// (the decoder: the lexer's walk of each event object, its values parsed
// and checked) and filed in order on the reader's (category, kernel,
// call, op): the two took 4.3 and 0.7 s of one core a gigabyte, one after
// the other. The decoder hands over batches of decoded events, each with
// its offsets and lines; an error of the decoder comes after the events
// before it, which are filed first, so that a trace's first error is the
// one said, as when the two ran in turn.

// tevRaw is the text of an event's phase, category, name, process and
// thread as the decoder read them (in its batch's bytes): the reader
// interns them (load), which took a tenth of the decoder's time.
type tevRaw struct {
	ph, cat, name, pid, tid []byte
	pidSet, tidSet          bool
}

// rawVal reads a scalar as value does and keeps its text in the batch's
// bytes; set is false for null.
func (r *torchReader) rawVal(what, want, accept string) (text []byte, set bool, err error) {
	kind, text, _, err := r.value(what, want, accept)
	if err != nil || kind == 0 {
		return nil, false, err
	}
	n := len(r.arena)
	r.arena = append(r.arena, text...)
	return r.arena[n:len(r.arena):len(r.arena)], true, nil
}

// load makes the decoded event d the one being filed, its strings
// interned.
func (r *torchReader) load(d *decoded) {
	r.ev, r.evOff, r.evEnd, r.evLine, r.evEOL = d.ev, d.off, d.end, d.line, d.eol
	e, rv := &r.ev, &d.rv
	e.Ph, e.Cat, e.Name = r.str(rv.ph), r.str(rv.cat), r.str(rv.name)
	if rv.pidSet {
		e.Pid = jid{s: r.tab.get(rv.pid), set: true}
	}
	if rv.tidSet {
		e.Tid = jid{s: r.tab.get(rv.tid), set: true}
	}
}

// str interns a string read raw, "" when absent.
func (r *torchReader) str(b []byte) string {
	if b == nil {
		return ""
	}
	return r.tab.get(b)
}

// decoded is an event as the decoder hands it over.
type decoded struct {
	ev        tev
	rv        tevRaw
	off, end  int64 // the offsets of the event's first byte and of the one after it
	line, eol int   // their lines (jsonSource.lineAt)
}

// decBatch is a batch of decoded events; err, when set, is the decoder's
// error after them, and last marks the end of the array.
type decBatch struct {
	evs   []decoded
	dims  []int64 // the grids and blocks of evs
	bytes []byte  // their raw strings
	err   error
	last  bool
}

// decBatchSize is the events of a batch, decBatches the batches in
// flight.
const (
	decBatchSize = 128
	decBatches   = 4
)

// events reads the traceEvents array, one event at a time.
func (r *torchReader) events() error {
	l := r.lex
	if err := l.expect('[', "\"traceEvents\" is an array"); err != nil {
		return err
	}
	return r.eventsPiped()
}

// argsUnread reports an event whose args profan does not read: a
// complete event of a category met before (its slot in r.cats holds it)
// that is neither a GPU event nor a CUDA call. Its args are skipped in one
// loop (skipFast), their grammar checked, their fields not decoded.
func (r *torchReader) argsUnread() bool {
	e := &r.rv
	if string(e.ph) != "X" || len(e.cat) == 0 {
		return false
	}
	slot := &r.cats[catSlot(e.cat)]
	if slot.text != string(e.cat) {
		return false
	}
	switch slot.cat {
	case catOp:
		// The shapes of the ops that may launch kernels are read
		// (torch_shapes.go), and a convolution's benchmark flag.
		return unshaped[string(e.name)]
	case catFrame, catAnnotation, catFlow, catOther:
		return true
	}
	return false
}

// eventsPiped reads the traceEvents array (its '[' taken) by a decoder
// goroutine, filing each event on this one. The lexer is the decoder's
// until it ends, at the end of the array or at an error.
func (r *torchReader) eventsPiped() error {
	full, free, quit, done := make(chan *decBatch, decBatches), make(chan *decBatch, decBatches), make(chan struct{}), make(chan struct{})
	for range decBatches {
		free <- &decBatch{evs: make([]decoded, 0, decBatchSize), dims: make([]int64, 0, 6*decBatchSize), bytes: make([]byte, 0, 64*decBatchSize)}
	}
	dec := &torchReader{lex: r.lex, in: r.in, tab: interner{m: map[string]string{}}}
	go func() {
		defer close(done)
		dec.decode(full, free, quit)
	}()
	stop := func() {
		close(quit)
		<-done
	}
	r.piped = true
	defer func() { r.piped = false }()
	for {
		b := <-full
		for i := range b.evs {
			d := &b.evs[i]
			r.load(d)
			r.s.acct.Rows++
			if err := r.event(d.off); err != nil {
				stop()
				return err
			}
		}
		if b.err != nil || b.last {
			<-done
			return b.err
		}
		b.evs, b.dims, b.bytes = b.evs[:0], b.dims[:0], b.bytes[:0]
		free <- b
	}
}

// decode decodes the events of the array into batches until its end or
// an error, or quit.
func (r *torchReader) decode(full, free chan *decBatch, quit chan struct{}) {
	l := r.lex
	var b *decBatch
	k := 0 // line ends before the last offset asked (jsonSource.lineAfter)
	send := func() bool {
		select {
		case full <- b:
			b = nil
			return true
		case <-quit:
			return false
		}
	}
	more, err := l.first(']')
	for {
		if b == nil {
			select {
			case b = <-free:
			case <-quit:
				return
			}
			r.arena = b.bytes
		}
		if !more || err != nil {
			b.err, b.last = err, err == nil
			send()
			return
		}
		l.peek()
		off := l.offset()
		if err = r.readEvent(); err != nil {
			continue
		}
		r.noteCategory()
		b.bytes = r.arena
		d := decoded{ev: r.ev, rv: r.rv, off: off, end: l.offset()}
		d.line = r.in.lineAfter(d.off, &k)
		d.eol = r.in.lineAfter(d.end, &k)
		d.ev.Args.Grid, b.dims = keepDims(d.ev.Args.Grid, b.dims)
		d.ev.Args.Block, b.dims = keepDims(d.ev.Args.Block, b.dims)
		b.evs = append(b.evs, d)
		if len(b.evs) == decBatchSize && !send() {
			return
		}
		more, err = l.more(']')
	}
}

// keepDims copies a grid or block (nil stays nil) into the batch's dims.
func keepDims(v, dims []int64) ([]int64, []int64) {
	if v == nil {
		return nil, dims
	}
	n := len(dims)
	dims = append(dims, v...)
	return dims[n:len(dims):len(dims)], dims
}

// noteCategory fills the category slot the reader's category fills for
// the event just decoded, so that argsUnread decides on the decoder's
// goroutine as it would on the reader's: the same events fill the same
// slots in the same order.
func (r *torchReader) noteCategory() {
	e := &r.rv
	switch string(e.ph) {
	case "", "M", "i", "I", "C", "n", "R", "O", "N", "D":
		return
	}
	if len(e.cat) == 0 {
		return
	}
	slot := &r.cats[catSlot(e.cat)]
	if slot.text == string(e.cat) {
		return
	}
	cat, ok := torchCats[string(e.cat)]
	if !ok {
		cat, ok = torchCats[strings.ToLower(string(e.cat))]
	}
	if ok {
		slot.text, slot.cat = string(e.cat), cat
	}
}

// lineAt is the line of byte off: for the event being filed (its first
// byte or the one after it) the decoder's, which reads ahead.
func (r *torchReader) lineAt(off int64) int {
	if r.piped {
		switch off {
		case r.evOff:
			return r.evLine
		case r.evEnd:
			return r.evEOL
		}
		return 0
	}
	return r.in.lineAt(off)
}
