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
// encoded in uvarints (see seal). Nothing is lost, and a trace's intervals
// cost about 7.5 of their 24 bytes: its starts come at a steady pace, its
// durations differ a little, its leads and lanes repeat. A trace of
// 600,000 launches kept 17 MB of intervals (a slice grown by appends), and
// the collector's head room over them.
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

// The flags of an interval's duration field (seal): its lead, or its key,
// is the previous interval's and is not written.
const (
	sameLead = 1 << iota
	sameKey
	ivalFlags = 2
)

// seal encodes the block being filled, in start order (arrival order
// among equal starts). Its first interval is written as its fields' bits;
// each next one as the change of the change of its start's bits (a
// steady pace costs nothing), the change of its duration's bits shifted
// over the flags that say whether its lead and key are the previous
// interval's, and those that are not, as the XOR of their bits with the
// previous interval's. The arithmetic wraps: any bits come back.
func (l *ivalLog) seal() {
	if len(l.cur) == 0 {
		return
	}
	slices.SortStableFunc(l.cur, func(x, y ival) int { return cmp.Compare(x.start, y.start) })
	b := l.scratch[:0]
	var prev ival
	var step uint64 // the previous change of the start's bits
	for i, iv := range l.cur {
		if i == 0 {
			b = binary.AppendUvarint(b, math.Float64bits(iv.start))
			b = binary.AppendUvarint(b, uint64(math.Float32bits(iv.dur)))
			b = binary.AppendUvarint(b, uint64(math.Float32bits(iv.lead)))
			b = binary.AppendUvarint(b, uint64(iv.key))
			prev = iv
			continue
		}
		d := math.Float64bits(iv.start) - math.Float64bits(prev.start)
		b = binary.AppendUvarint(b, zigzag(int64(d-step)))
		step = d
		flags := uint64(0)
		lead, key := math.Float32bits(iv.lead)^math.Float32bits(prev.lead), iv.key^prev.key
		if lead == 0 {
			flags |= sameLead
		}
		if key == 0 {
			flags |= sameKey
		}
		dur := int64(math.Float32bits(iv.dur)) - int64(math.Float32bits(prev.dur))
		b = binary.AppendUvarint(b, zigzag(dur)<<ivalFlags|flags)
		if lead != 0 {
			b = binary.AppendUvarint(b, uint64(lead))
		}
		if key != 0 {
			b = binary.AppendUvarint(b, uint64(key))
		}
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

// zigzag maps small negative and positive numbers to small uvarints.
func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// ivalDecoder reads a run's intervals in turn.
type ivalDecoder struct {
	blocks []ivalBlockEnc // those left
	b      []byte         // what is left of the block being read
	iv     ival
	step   uint64 // the change of the start's bits from the interval before
	run    int
}

func (d *ivalDecoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	d.b = d.b[n:]
	return v
}

func (d *ivalDecoder) next() bool {
	if len(d.b) == 0 {
		if len(d.blocks) == 0 {
			return false
		}
		d.b, d.blocks = d.blocks[0].b, d.blocks[1:]
		// A block's first interval: its fields' bits.
		d.iv.start = math.Float64frombits(d.uvarint())
		d.iv.dur = math.Float32frombits(uint32(d.uvarint()))
		d.iv.lead = math.Float32frombits(uint32(d.uvarint()))
		d.iv.key = uint32(d.uvarint())
		d.step = 0
		return true
	}
	d.step += uint64(unzigzag(d.uvarint()))
	d.iv.start = math.Float64frombits(math.Float64bits(d.iv.start) + d.step)
	f := d.uvarint()
	d.iv.dur = math.Float32frombits(uint32(int64(math.Float32bits(d.iv.dur)) + unzigzag(f>>ivalFlags)))
	if f&sameLead == 0 {
		d.iv.lead = math.Float32frombits(math.Float32bits(d.iv.lead) ^ uint32(d.uvarint()))
	}
	if f&sameKey == 0 {
		d.iv.key ^= uint32(d.uvarint())
	}
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
