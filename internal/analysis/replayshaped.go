package analysis

import (
	"strings"

	"github.com/profan-dev/profan"
)

// shapedBy is the op the host dispatches first after the read at span
// i (a sync whose site is name), the reading op's own spans apart, where
// it makes a shape of a size (sizeOps): the value read sizes a tensor (a
// length regulator's .item() expanding its phoneme's row, fixtures/
// host32's tts), not an index to the next read (host30's Viterbi
// backtrace selects with it). "" where the next op is another, or the
// host syncs, or the step ends, first.
func (r *replay) shapedBy(i int, name string) string {
	own := ""
	for _, part := range strings.Split(name, " → ") {
		if strings.Contains(part, "::") {
			own = part
			break
		}
	}
	for j := i + 1; j < len(r.spans) && j <= i+sizeLook && r.spans[j].Start < r.hi; j++ {
		s := r.spans[j]
		if s.State == profan.HostSync {
			return ""
		}
		if s.State != profan.HostDispatch || s.Name < 0 || int(s.Name) >= len(r.snames) || r.snames[s.Name] == own {
			continue
		}
		if op := r.snames[s.Name]; sizeOps[op] {
			return op
		}
		return ""
	}
	return ""
}

// sizeLook is the most spans shapedBy looks past a read.
const sizeLook = 16

// sizeOps are the aten ops that make a tensor of a size given them: a
// value read just before one is a shape.
var sizeOps = map[string]bool{
	"aten::expand": true, "aten::repeat": true, "aten::repeat_interleave": true,
	"aten::arange": true, "aten::zeros": true, "aten::ones": true, "aten::empty": true,
	"aten::full": true, "aten::new_zeros": true, "aten::new_empty": true, "aten::new_ones": true,
	"aten::new_full": true, "aten::randn": true, "aten::rand": true, "aten::tile": true,
}
