package analysis

import (
	"cmp"
	"slices"

	"github.com/profan-dev/profan/internal/verdict"
)

// inputSizes sets sh's Inputs, Copies, Input and InputBytes: where every
// replayed step makes the same number of host-to-device copies, those
// whose bytes differ from one step to another at the same place in the
// step's order (fixtures/host32's tts.noread: the mel targets copied in
// at 783360, 913920, 883200 and 691200 bytes, the batch padded to its
// longest), the largest of them named by its call's frame.
func (r *replay) inputSizes(sh *Shapes) {
	var per [][]int // each step's host-to-device copies, by index
	r.eachStep(func(_ int, lo, hi float64) {
		var cs []int
		j, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued < hi; j++ {
			if c := int32(r.kernels[j].copy); c&copyToDevice != 0 && c&(copyPinned|copyPageable) != 0 {
				cs = append(cs, j)
			}
		}
		per = append(per, cs)
	})
	if len(per) < 2 || len(per[0]) == 0 {
		return
	}
	for _, cs := range per[1:] {
		if len(cs) != len(per[0]) {
			return
		}
	}
	sh.Copies = len(per[0])
	best, most := -1, float32(0)
	for p := range per[0] {
		changed, top := false, float32(0)
		for _, cs := range per {
			b := r.kernels[cs[p]].bytes
			changed = changed || b != r.kernels[per[0][p]].bytes
			top = max(top, b)
		}
		if !changed {
			continue
		}
		sh.Inputs++
		if top > most {
			best, most = p, top
		}
	}
	if best < 0 {
		return
	}
	for _, cs := range per {
		sh.InputBytes = append(sh.InputBytes, float64(r.kernels[cs[best]].bytes))
	}
	if i := r.spanAt(r.kernels[per[0][best]].issued); i >= 0 && r.spans[i].Name >= 0 && int(r.spans[i].Name) < len(r.snames) {
		_, sh.Input = verdict.SiteParts(r.snames[r.spans[i].Name])
	}
}
