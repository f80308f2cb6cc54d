package ingest

import "io"

// asideBlock is the size of the blocks asideHash hands to its goroutine,
// and asideBlocks how many may wait there.
const (
	asideBlock  = 64 << 10
	asideBlocks = 4
)

// asideHash writes what it is given to h on a goroutine of its own, in
// order, in blocks of about asideBlock bytes: the line reader's digest
// (SHA-256, a tenth of the parse of an ncu page) then runs beside the
// parse instead of on its goroutine. The goroutine starts at the first
// full block (a small export is hashed by wait, without one); wait hands
// it the rest and waits until h has all of it, and a write after wait
// goes to h directly. stop ends the goroutine without waiting, once the
// digest will not be asked for (a read that failed): what is written
// after it is dropped.
type asideHash struct {
	h       io.Writer
	buf     []byte
	full    chan []byte // blocks to hash, in order
	spare   chan []byte // blocks hashed, to be filled again
	done    chan struct{}
	ended   bool // wait was called
	stopped bool // stop was called
}

func newAsideHash(h io.Writer) *asideHash { return &asideHash{h: h} }

func (a *asideHash) Write(p []byte) (int, error) {
	switch {
	case a.stopped:
		return len(p), nil
	case a.ended:
		return a.h.Write(p)
	}
	a.buf = append(a.buf, p...)
	if len(a.buf) >= asideBlock {
		a.send()
	}
	return len(p), nil
}

// send hands the block being filled to the goroutine, started at the
// first block, and takes a spare one.
func (a *asideHash) send() {
	if a.full == nil {
		a.full, a.spare, a.done = make(chan []byte, asideBlocks), make(chan []byte, asideBlocks), make(chan struct{})
		for range asideBlocks {
			a.spare <- nil // made by the appends that fill it
		}
		go func() {
			for b := range a.full {
				a.h.Write(b)
				a.spare <- b
			}
			close(a.done)
		}()
	}
	a.full <- a.buf
	a.buf = (<-a.spare)[:0]
}

// wait hashes what was written and waits until h has all of it.
func (a *asideHash) wait() {
	if a.ended || a.stopped {
		return
	}
	a.ended = true
	if a.full != nil {
		close(a.full)
		<-a.done
	}
	if len(a.buf) > 0 {
		a.h.Write(a.buf) // after the blocks handed over: in order
	}
	a.buf = nil
}

// stop ends the goroutine, which hashes the blocks it holds and exits;
// it does not wait for it.
func (a *asideHash) stop() {
	if a.ended || a.stopped {
		return
	}
	a.stopped = true
	if a.full != nil {
		close(a.full)
	}
	a.buf = nil
}
