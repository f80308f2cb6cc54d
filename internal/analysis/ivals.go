package analysis

import (
	"cmp"
	"container/heap"
	"encoding/binary"
	"iter"
	"math"
	"slices"
)

// ivalBlock is how many intervals an ivalLog sorts and encodes at once.
const ivalBlock = 4096

// ivalLog keeps a run's GPU intervals as they arrive, compactly: in blocks
// of up to ivalBlock intervals, each put in start order when it fills and
// encoded field by field as the XOR of its bits with the previous
// interval's, in uvarints. Nothing is lost, and a trace's intervals cost
// about 10 of their 24 bytes: its starts share their high bits, its
// durations, leads and lanes repeat. A trace of 600,000 launches kept 17
// MB of intervals (a slice grown by appends), and the collector's head
// room over them.
type ivalLog struct {
	cur []ival // the block being filled, in arrival order
	// inOrder: cur arrived in start order, its first starting at or after
	// the last of the block before it (prevMax).
	inOrder bool
	prevMax float64
	blocks  []ivalBlockEnc
	n       int
	scratch []byte
}

// ivalBlockEnc is an encoded block, in start order. A block that follows
// the one before it (all of it starts at or after that block's last)
// continues its run: a run's blocks are read one after the other, and
// only runs are merged (a trace's kernels, then its copies).
type ivalBlockEnc struct {
	b         []byte
	continues bool
}

func (l *ivalLog) add(iv ival) {
	if len(l.cur) == 0 {
		l.inOrder = len(l.blocks) > 0 && iv.start >= l.prevMax
	} else if iv.start < l.cur[len(l.cur)-1].start {
		l.inOrder = false
	}
	l.n++
	if l.cur == nil {
		l.cur = make([]ival, 0, ivalBlock)
	}
	l.cur = append(l.cur, iv)
	if len(l.cur) == ivalBlock {
		l.seal()
	}
}

// seal encodes the block being filled, in start order (arrival order
// among equal starts).
func (l *ivalLog) seal() {
	if len(l.cur) == 0 {
		return
	}
	slices.SortStableFunc(l.cur, func(x, y ival) int { return cmp.Compare(x.start, y.start) })
	b := l.scratch[:0]
	var prev ival
	for _, iv := range l.cur {
		b = binary.AppendUvarint(b, math.Float64bits(iv.start)^math.Float64bits(prev.start))
		b = binary.AppendUvarint(b, uint64(math.Float32bits(iv.dur)^math.Float32bits(prev.dur)))
		b = binary.AppendUvarint(b, uint64(math.Float32bits(iv.lead)^math.Float32bits(prev.lead)))
		b = binary.AppendUvarint(b, uint64(iv.key^prev.key))
		prev = iv
	}
	l.scratch = b
	l.blocks = append(l.blocks, ivalBlockEnc{b: slices.Clone(b), continues: l.inOrder})
	l.prevMax = l.cur[len(l.cur)-1].start
	l.cur = l.cur[:0]
}

// len is the number of intervals added.
func (l *ivalLog) len() int { return l.n }

// all yields the intervals in start order, those of equal start in the
// order they were added.
func (l *ivalLog) all() iter.Seq[ival] {
	l.seal()
	return func(yield func(ival) bool) {
		// The runs: their blocks in turn, the runs merged, the lowest
		// start first, the earlier run among equal starts (its intervals
		// came first).
		var h ivalHeap
		for i := 0; i < len(l.blocks); {
			j := i + 1
			for j < len(l.blocks) && l.blocks[j].continues {
				j++
			}
			d := &ivalDecoder{blocks: l.blocks[i:j], run: len(h)}
			if d.next() {
				h = append(h, d)
			}
			i = j
		}
		if len(h) == 1 {
			for d := h[0]; ; {
				if !yield(d.iv) || !d.next() {
					return
				}
			}
		}
		if len(h) <= 8 {
			// A few runs (a trace's kernels, then its copies): the
			// least of them found in turn, as the heap would.
			for len(h) > 0 {
				m := 0
				for i := 1; i < len(h); i++ {
					if h.Less(i, m) {
						m = i
					}
				}
				d := h[m]
				if !yield(d.iv) {
					return
				}
				if !d.next() {
					h = slices.Delete(h, m, m+1)
				}
			}
			return
		}
		heap.Init(&h)
		for len(h) > 0 {
			d := h[0]
			if !yield(d.iv) {
				return
			}
			if d.next() {
				heap.Fix(&h, 0)
			} else {
				heap.Pop(&h)
			}
		}
	}
}

// ivalDecoder reads a run's intervals in turn.
type ivalDecoder struct {
	blocks []ivalBlockEnc // those left
	b      []byte         // what is left of the block being read
	iv     ival
	run    int
}

func (d *ivalDecoder) next() bool {
	if len(d.b) == 0 {
		if len(d.blocks) == 0 {
			return false
		}
		d.b, d.blocks, d.iv = d.blocks[0].b, d.blocks[1:], ival{} // each block from zero
	}
	var f [4]uint64
	for i := range f {
		v, n := binary.Uvarint(d.b)
		f[i], d.b = v, d.b[n:]
	}
	d.iv.start = math.Float64frombits(math.Float64bits(d.iv.start) ^ f[0])
	d.iv.dur = math.Float32frombits(math.Float32bits(d.iv.dur) ^ uint32(f[1]))
	d.iv.lead = math.Float32frombits(math.Float32bits(d.iv.lead) ^ uint32(f[2]))
	d.iv.key ^= uint32(f[3])
	return true
}

// ivalHeap orders run decoders by their current interval's start, then by
// run.
type ivalHeap []*ivalDecoder

func (h ivalHeap) Len() int { return len(h) }
func (h ivalHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.iv.start != b.iv.start {
		return a.iv.start < b.iv.start
	}
	return a.run < b.run
}
func (h ivalHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *ivalHeap) Push(x any)   { *h = append(*h, x.(*ivalDecoder)) }
func (h *ivalHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
