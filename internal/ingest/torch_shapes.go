package ingest

import (
	"bytes"
	"cmp"
	"math"
	"slices"
)

// An aten op recorded with record_shapes=True carries its inputs' shapes
// in its args: "Input Dims" (one list of sizes an input, a TensorList a
// list of them, [] for a scalar), "Input Strides" (alike) and "Input type"
// (the element type of each input: "float", "c10::BFloat16", "long int";
// "Scalar", "TensorList" and the like for the rest). The reader turns them
// into one number an op, the bytes the op moves (opMoved), kept beside
// the op (torchReader.opBytes, 2 bytes each) until the launches inside it
// come, and given to each kernel it launched (profan.Kernel.OpBytes).

// shapeBuf holds the shape args of the event being decoded.
type shapeBuf struct {
	dims, strides []int64 // flat
	// dRank and sRank are the ranks of the tensors of dims and strides
	// in order; dIn the input each tensor of dims belongs to.
	dRank, sRank []int8
	dIn          []int16
	// size is each input's element size in bytes: 0 not a tensor's
	// type, -1 a type profan does not know (a TensorList's).
	size              []int8
	hasDims, hasTypes bool
	hasStrides        bool
}

func (b *shapeBuf) reset() {
	b.dims, b.strides = b.dims[:0], b.strides[:0]
	b.dRank, b.sRank, b.dIn, b.size = b.dRank[:0], b.sRank[:0], b.dIn[:0], b.size[:0]
	b.hasDims, b.hasTypes, b.hasStrides = false, false, false
}

// maxShapeInputs bounds the inputs and tensors of one op read for their
// shapes (a torch.cat of many tensors): past it the op's bytes are
// unknown.
const maxShapeInputs = 256

// shapeList reads "Input Dims" or "Input Strides": an array with one
// entry an input, each an array of integers, or of arrays of them (a
// TensorList). ok is false where the value is not that shape (the op's
// bytes are then unknown; what is not, is skipped, not refused).
func (r *torchReader) shapeList(flat *[]int64, ranks *[]int8, in *[]int16) (ok bool, err error) {
	l := r.lex
	if c, have := l.peek(); !have {
		return false, l.eof()
	} else if c != '[' {
		return false, l.skip()
	}
	l.pos++
	ok = true
	more, err := l.first(']')
	for i := 0; more && err == nil; i++ {
		if c, _ := l.peek(); c != '[' || i >= maxShapeInputs || len(*ranks) >= maxShapeInputs {
			ok = false
			if err = l.skip(); err != nil {
				return false, err
			}
			more, err = l.more(']')
			continue
		}
		l.pos++
		if c, _ := l.peek(); c == '[' {
			// A TensorList: its tensors, each an array of integers.
			inner, ierr := l.first(']')
			for inner && ierr == nil {
				var tok bool
				if c, _ := l.peek(); c != '[' || len(*ranks) >= maxShapeInputs {
					tok, ierr = false, l.skip()
				} else {
					l.pos++
					tok, ierr = r.sizes(flat, ranks)
					if in != nil {
						*in = append(*in, int16(i))
					}
				}
				ok = ok && tok
				if ierr == nil {
					inner, ierr = l.more(']')
				}
			}
			if ierr != nil {
				return false, ierr
			}
		} else {
			// One tensor's sizes (or a scalar's []).
			tok, serr := r.sizes(flat, ranks)
			if serr != nil {
				return false, serr
			}
			ok = ok && tok
			if in != nil {
				*in = append(*in, int16(i))
			}
		}
		more, err = l.more(']')
	}
	return ok, err
}

// sizes reads the integers of one array, its '[' taken, into flat and
// their count into ranks; ok is false where one is not a non-negative
// integer (skipped) or there are more than 16.
func (r *torchReader) sizes(flat *[]int64, ranks *[]int8) (bool, error) {
	l := r.lex
	ok, n := true, 0
	more, err := l.first(']')
	for more && err == nil {
		c, _ := l.peek()
		if c < '0' || c > '9' {
			ok = false
			if err = l.skip(); err != nil {
				return false, err
			}
		} else {
			text, nerr := l.number()
			if nerr != nil {
				return false, nerr
			}
			v, good := digits(text)
			if !good || n == 16 {
				ok = false
			} else {
				*flat = append(*flat, v)
				n++
			}
		}
		more, err = l.more(']')
	}
	*ranks = append(*ranks, int8(n))
	return ok, err
}

// digits is the value of a run of at most 18 decimal digits.
func digits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	v := int64(0)
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// unshaped are the aten ops whose shapes are not read: views and
// composites that launch no kernel of their own (the op inside them
// that does is read), about half of a trace's ops, whose args are
// skipped as before.
var unshaped = map[string]bool{
	"aten::as_strided": true, "aten::view": true, "aten::reshape": true, "aten::transpose": true, "aten::_unsafe_view": true,
	"aten::t": true, "aten::slice": true, "aten::expand": true, "aten::result_type": true, "aten::_reshape_alias": true,
	"aten::unsqueeze": true, "aten::squeeze": true, "aten::permute": true, "aten::select": true, "aten::detach": true,
	"aten::detach_": true, "aten::empty": true, "aten::empty_like": true, "aten::empty_strided": true, "aten::alias": true,
	"aten::lift_fresh": true, "aten::resolve_conj": true, "aten::resolve_neg": true, "aten::matmul": true, "aten::linear": true,
	"aten::contiguous": true, "aten::to": true, "aten::flatten": true, "aten::split": true, "aten::chunk": true,
	"aten::narrow": true, "aten::unbind": true, "aten::expand_as": true, "aten::view_as": true, "aten::numpy_T": true,
	"aten::is_nonzero": true, "aten::size": true, "aten::stride": true, "aten::dim": true, "aten::unflatten": true,
	"aten::set_": true, "aten::split_with_sizes": true, "aten::is_same_size": true, "aten::_has_compatible_shallow_copy_type": true,
}

// typeList reads "Input type": an array of strings, one an input.
func (r *torchReader) typeList(size *[]int8) (bool, error) {
	l := r.lex
	if c, _ := l.peek(); c != '[' {
		return false, l.skip()
	}
	l.pos++
	ok := true
	more, err := l.first(']')
	for more && err == nil {
		if c, _ := l.peek(); c != '"' || len(*size) >= maxShapeInputs {
			ok = false
			if err = l.skip(); err != nil {
				return false, err
			}
		} else {
			s, serr := l.string()
			if serr != nil {
				return false, serr
			}
			*size = append(*size, elemSize(s))
		}
		more, err = l.more(']')
	}
	return ok, err
}

// elemSize is the bytes of one element of a recorded input type: 0 for
// the types of no tensor (scalars, lists, none), -1 for one profan does
// not know (a TensorList, whose element type the trace does not say).
func elemSize(t []byte) int8 {
	switch string(t) {
	case "float", "int", "c10::complex<c10::Half>", "unsigned int":
		return 4
	case "double", "long int", "c10::complex<float>", "unsigned long", "long long int":
		return 8
	case "c10::Half", "c10::BFloat16", "short int", "unsigned short":
		return 2
	case "bool", "unsigned char", "signed char", "c10::Float8_e4m3fn", "c10::Float8_e5m2", "c10::Float8_e4m3fnuz", "c10::Float8_e5m2fnuz", "c10::quint8", "c10::qint8":
		return 1
	case "c10::complex<double>":
		return 16
	case "", "Scalar", "ScalarList", "int[]", "GenericList", "String", "Device", "None", "Layout", "ScalarType", "MemoryFormat", "Generator", "Stream":
		return 0
	}
	return -1
}

// opMoved is the bytes an op moves, from its shape args: what its tensor
// inputs span (each input's distinct elements, its sizes over the
// dimensions whose stride is not 0: an expanded index reads its one
// column) times their element size, and what it writes: for an in-place
// op (its name ends in one _) its first input again, for a reduction
// (sum, mean, a norm ...) nothing counted (its output is small), for any
// other op as many elements as its largest input has (an element-wise
// op's output, broadcast; a gather's, as many as its index) of its first
// input's type. 0 when the shapes are absent or incomplete: a TensorList's
// tensors (torch.cat), whose element type the trace does not say, a
// type profan does not know, strides that do not match the sizes.
func (b *shapeBuf) opMoved(name []byte) float64 {
	if !b.hasDims || !b.hasTypes || len(b.dIn) != len(b.dRank) {
		return 0
	}
	strides := b.hasStrides && len(b.sRank) == len(b.dRank) && len(b.strides) == len(b.dims)
	read, most, first := 0.0, 0.0, 0.0
	size0 := 0.0 // the first input's element size, the output's
	off := 0
	for k, rank := range b.dRank {
		n := int(rank)
		in := int(b.dIn[k])
		if rank == 0 || in >= len(b.size) {
			off += n
			continue
		}
		sz := float64(b.size[in])
		if sz <= 0 {
			return 0
		}
		whole, distinct := 1.0, 1.0
		for j := off; j < off+n; j++ {
			d := float64(b.dims[j])
			whole *= d
			if !strides || b.sRank[k] != rank || b.strides[j] != 0 {
				distinct *= d
			}
		}
		off += n
		read += distinct * sz
		most = math.Max(most, whole)
		if in == 0 {
			first += distinct * sz
			size0 = sz
		}
	}
	if size0 == 0 {
		size0 = 4
	}
	largest := most * size0
	if read <= 0 || math.IsInf(read, 0) {
		return 0
	}
	short := bytes.TrimPrefix(name, []byte("aten::"))
	switch {
	case bytes.HasSuffix(short, []byte("_")) && !bytes.HasSuffix(short, []byte("__")):
		return read + first
	case reductionOp(short):
		return read
	}
	return read + largest
}

// reductionOp reports an aten op whose output is much smaller than its
// input: a sum, mean, norm, extremum or loss over a dimension.
func reductionOp(name []byte) bool {
	switch string(name) {
	case "sum", "mean", "amax", "amin", "max", "min", "prod", "norm", "linalg_vector_norm", "var", "std", "var_mean",
		"std_mean", "argmax", "argmin", "any", "all", "logsumexp", "count_nonzero", "nansum":
		return true
	}
	return bytes.HasSuffix(name, []byte("_loss")) || bytes.HasPrefix(name, []byte("nll_loss"))
}

// packBytes keeps an op's bytes in 2 bytes: a float32's sign, exponent
// and 7 bits of its mantissa (1% at worst), 0 for none.
func packBytes(b float64) uint16 {
	if !(b > 0) {
		return 0
	}
	return uint16(math.Float32bits(float32(b)) >> 16)
}

func unpackBytes(p uint16) float64 { return float64(math.Float32frombits(uint32(p) << 16)) }

// opBytesAt is the bytes the innermost op of thread tid open at t (ns)
// moves (opMoved), 0 when none is or it has no shapes. The ops read so
// far are sorted by start once (Kineto writes them first, in order);
// the last op of the thread starting at or before t is the innermost
// open one when it is still open, else the ones before it are tried.
func (r *torchReader) opBytesAt(t int64, tid int32) float64 {
	if len(r.opBytes) != len(r.ops) {
		return 0
	}
	if r.opsSorted != len(r.ops) {
		r.sortOps()
	}
	tid = min(tid, 255)
	i, _ := slices.BinarySearchFunc(r.ops, t, func(h hostRec, t int64) int {
		return cmp.Compare(h.start, t+1)
	})
	// At most opLookBack records back, every thread's counted: a thread
	// whose op started long before, many other threads' ops since, gets
	// none (its kernels keep ATen's pricing) rather than a long walk.
	for j := i - 1; j >= 0 && j >= i-opLookBack; j-- {
		h := r.ops[j]
		if h.tid() != tid {
			continue
		}
		if h.end(r.long) >= t {
			return unpackBytes(r.opBytes[j])
		}
	}
	return 0
}

// opLookBack bounds the ops opBytesAt looks at before a launch.
const opLookBack = 256

// sortOps sorts the ops (and their bytes) by start, the longer first
// where two start together, as enclose does: the ops read since the last
// sort are checked to follow in order (Kineto writes them so), and only
// where one does not is the whole list sorted.
func (r *torchReader) sortOps() {
	less := func(x, y hostRec) int {
		return cmp.Or(cmp.Compare(x.start, y.start), cmp.Compare(y.end(r.long), x.end(r.long)))
	}
	sorted := true
	for i := max(1, r.opsSorted); i < len(r.ops); i++ {
		if less(r.ops[i-1], r.ops[i]) > 0 {
			sorted = false
			break
		}
	}
	if !sorted {
		idx := make([]int32, len(r.ops))
		for i := range idx {
			idx[i] = int32(i)
		}
		slices.SortStableFunc(idx, func(a, b int32) int { return less(r.ops[a], r.ops[b]) })
		ops, by := make([]hostRec, len(r.ops)), make([]uint16, len(r.ops))
		for i, j := range idx {
			ops[i], by[i] = r.ops[j], r.opBytes[j]
		}
		r.ops, r.opBytes = ops, by
	}
	r.opsSorted = len(r.ops)
}
