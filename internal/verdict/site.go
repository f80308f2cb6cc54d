package verdict

import "strings"

// Site is a sync site of the replayed steps: the method and frame that
// forced it, and the host time spent waiting in it.
type Site struct {
	Site    string // the span's name: ".tolist() → aten::to → cudaStreamSynchronize at moe.py(146): forward"
	Method  string // "tolist", "item", "torch.cuda.synchronize"; "" when the trace has no stack
	Frame   string // "moe.py(146): forward"; "" when unknown
	Count   int
	Seconds float64
	// Inside counts the times it sat between two kernel launches of one
	// step: there it splits the step, which no single CUDA graph holds.
	Inside int
	// Steps counts the replayed steps it occurs in.
	Steps int
	// Consumed is the host's Python, seconds as traced, that computes
	// from what the sync's reads returned: after each of its syncs, the
	// Python spans up to its frame's last span in the step, where no
	// kernel is launched between the read and that span's end (a metric
	// over a batch's predictions after .cpu(): np.bincount over its
	// pixels); 0 for none, and for other states' sites.
	Consumed float64
	// Calls counts the Python calls (function frames) in that Python:
	// a metric's library calls (numpy's reductions), where a store of
	// the values into a host array makes none.
	Calls int
	// Fewest and Most are the fewest and the most times a sync site
	// occurs in one replayed step (0 in a step it is absent from): a
	// read that recurs a different number of times from one step to the
	// next ends a loop whose count its values decide (an adaptive
	// solver's accept and stop tests). 0 for other states' sites.
	Fewest, Most int
	// Scaler reports a read made inside GradScaler.step, before it steps
	// the optimizer (profan.ScalerFrame): the scaler's found_inf, which
	// the user's code does not read itself and cannot read less often;
	// a fused optimizer takes it on the device.
	Scaler bool
	// Reads counts the times it waited for a device-to-host copy made
	// since the host's sync before it: the host reading GPU bytes (a
	// value, or an op's argument held on the GPU), not an op's upload
	// from pageable memory.
	Reads int
	// Sizes counts the pairs of consecutive steps in which the kernels
	// launched right after the sync, at its place in the step, run on
	// other grids while those right before it ran on the same: the shapes
	// change at the read, its value sizes the work after it (a count read
	// with int() giving topk its k). 0 for a read whose following shapes
	// stay, or change with the ones before it.
	Sizes int
	// Shaped counts its reads whose value the host makes a shape of:
	// the first op it dispatches after the read (the reading op's own
	// spans apart) expands, repeats or allocates by a size (aten::expand,
	// repeat, arange, zeros: a length regulator's repeat count sizing
	// its row's expansion), where a walk's read indexes the next read
	// (aten::select: a backtrace). ShapeOp is the op that most often
	// does it ("" for none).
	Shaped  int
	ShapeOp string
	// Within is the innermost call of the user's forward methods (the
	// Python frames the reader keeps whole) that holds most of its
	// syncs: "host28.py(300): forward" for a read in Codebook.update,
	// which Codebook.forward calls, or Frame itself for a read at a
	// forward's line; "" where none holds it (a read in the training
	// loop, or a trace without with_stack).
	Within string
	// Tensors is the most distinct sizes, in one step, of the work each
	// of its reads reads back: the last kernel launched since the read
	// before it of the site (its name, grid and the bytes its op moves).
	// A list of tensors walked in Python, one read a tensor (a gradient
	// norm's .norm(2).item() a parameter: 16 sizes in fixtures/host33's
	// w2v, 217 reads a step), reads many; a loop's stop test, each
	// iteration the same work, one. TensorOp is the op that launched that
	// kernel most often (aten::linalg_vector_norm); "" for none.
	Tensors  int
	TensorOp string
}

// SiteParts reads the method and the frame from a site's name
// (profan.HostEvent.Site).
func SiteParts(site string) (method, frame string) {
	if m, _, ok := strings.Cut(site, "() → "); ok {
		method = strings.TrimPrefix(m, ".")
	}
	if _, f, ok := strings.Cut(site, " at "); ok {
		frame = f
	}
	return method, frame
}
