package analysis

import (
	"cmp"
	"slices"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/verdict"
)

// rowLoops adds to gone (made where nil) the loops l.Follow's reads make
// row by row: runs of two or more stretches of the host between kernel
// launches (kern: the span launches one), in one step, each holding
// reads of a site l.Follow names at one frame, the same op launching
// between each two of them, and minGatherReads reads or more in all
// (fixtures/host30's crf: pytorch-crf's Viterbi backtrace, each
// sentence's score[idx].max() launched, then one .item() a time step,
// 2378 reads a step in 64 rows). Followed on the GPU (the path gathered
// over the whole batch, read back once), the loop goes from its first
// row's stretch to its last read, and after it the spans up to the first
// Python of another frame, a loader's span or a launch: the reads, their
// copies' calls, the lookups' dispatch, the Python at the reads' frame
// and the launches between the rows, with the kernels they issued; the
// last read's wait stays (the path's one read).
func (r *replay) rowLoops(l Lever, kern []bool, gone []bool) []bool {
	// A stretch between two launching spans: its spans [a, b), its
	// reads of a followed site, their frame, its first and last read.
	type stretch struct {
		a, b, reads, first, last, step int
		frame                          string
	}
	read := func(lo, hi int) (st stretch, ok bool) {
		st = stretch{a: lo, b: hi, first: -1, last: -1}
		for j := lo; j < hi; j++ {
			s := r.spans[j]
			if s.State != profan.HostSync || s.Name < 0 || int(s.Name) >= len(r.snames) || !l.Follow(r.snames[s.Name]) {
				continue
			}
			_, f := verdict.SiteParts(r.snames[s.Name])
			if f == "" || st.first >= 0 && f != st.frame {
				return st, false
			}
			if st.first < 0 {
				st.first, st.frame = j, f
				st.step, _ = slices.BinarySearch(r.bounds, s.Start)
			}
			st.reads, st.last = st.reads+1, j
		}
		return st, st.reads > 0
	}
	var run []stretch
	flush := func() {
		defer func() { run = run[:0] }()
		reads := 0
		for _, st := range run {
			reads += st.reads
		}
		if len(run) < 2 || reads < minGatherReads {
			return
		}
		last := run[len(run)-1]
		end := last.last + 1
		for ; end < last.b; end++ {
			s := r.spans[end]
			if s.State == profan.HostData || s.State == profan.HostPython && (s.Name < 0 || int(s.Name) >= len(r.snames) || r.snames[s.Name] != last.frame) {
				break
			}
		}
		if gone == nil {
			gone = make([]bool, len(r.spans))
		}
		for j := run[0].a; j < end; j++ {
			gone[j] = j != last.last
		}
	}
	i, _ := slices.BinarySearchFunc(r.spans, r.lo, func(s profan.HostSpan, x float64) int { return cmp.Compare(s.End(), x) })
	start := i
	for ; i <= len(r.spans); i++ {
		if i < len(r.spans) && r.spans[i].Start < r.hi && !kern[i] {
			continue
		}
		st, ok := read(start, i)
		ok = ok && start > 0
		if n := len(run); n > 0 && (!ok || st.frame != run[n-1].frame || st.step != run[n-1].step ||
			r.spans[run[n-1].a-1].Name != r.spans[st.a-1].Name) {
			flush()
		}
		if ok {
			run = append(run, st)
		}
		if i == len(r.spans) || r.spans[i].Start >= r.hi {
			break
		}
		start = i + 1
	}
	flush()
	return gone
}
