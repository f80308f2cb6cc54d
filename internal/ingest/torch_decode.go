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

// decoded is an event as the decoder hands it over.
type decoded struct {
	ev        tev
	off, end  int64 // the offsets of the event's first byte and of the one after it
	line, eol int   // their lines (jsonSource.lineAt)
}

// decBatch is a batch of decoded events; err, when set, is the decoder's
// error after them, and last marks the end of the array.
type decBatch struct {
	evs  []decoded
	dims []int64 // the grids and blocks of evs
	err  error
	last bool
}

// decBatchSize is the events of a batch, decBatches the batches in
// flight.
const (
	decBatchSize = 128
	decBatches   = 4
)

// eventsPiped reads the traceEvents array (its '[' taken) by a decoder
// goroutine, filing each event on this one. The lexer is the decoder's
// until it ends, at the end of the array or at an error.
func (r *torchReader) eventsPiped() error {
	full, free, quit, done := make(chan *decBatch, decBatches), make(chan *decBatch, decBatches), make(chan struct{}), make(chan struct{})
	for range decBatches {
		free <- &decBatch{evs: make([]decoded, 0, decBatchSize), dims: make([]int64, 0, 6*decBatchSize)}
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
			r.ev, r.evOff, r.evEnd, r.evLine, r.evEOL = d.ev, d.off, d.end, d.line, d.eol
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
		b.evs, b.dims = b.evs[:0], b.dims[:0]
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
		d := decoded{ev: r.ev, off: off, end: l.offset()}
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
	e := &r.ev
	switch e.Ph {
	case "", "M", "i", "I", "C", "n", "R", "O", "N", "D":
		return
	}
	if e.Cat == "" {
		return
	}
	slot := &r.cats[catSlot(e.Cat)]
	if slot.text == e.Cat {
		return
	}
	cat, ok := torchCats[e.Cat]
	if !ok {
		cat, ok = torchCats[strings.ToLower(e.Cat)]
	}
	if ok {
		slot.text, slot.cat = e.Cat, cat
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
