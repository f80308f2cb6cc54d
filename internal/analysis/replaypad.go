package analysis

import (
	"cmp"
	"slices"
	"sync"
)

// replayPad is each kernel's time scale on a padded step (padFactors),
// made once per replay.
type replayPad struct {
	once sync.Once
	f    []float32
}

// padFactors is, for each kernel of the window, the share its time
// grows by when the step is padded to fixed shapes, as a CUDA graph's
// capture of a step whose shapes change needs (Lever.Pad): the kernels
// launched in every replayed step are matched by name and order within
// the step (the n-th launch of a name), each one's size is what its op
// moves (the shapes the trace recorded, record_shapes) or, where those
// are unknown, its grid's blocks, and each runs at the largest size the
// steps show for it: its time times that size over its own. A kernel
// not launched in every step, or of no known size, keeps its time. The
// padding is the least capture needs for the traced batches; a fixed
// worst case beyond them costs more (fixtures/host26d's mol.graphs). A
// name launched a different number of times from one step to another
// (a loop's trip count, a length's) cannot be matched launch by launch:
// its kernels keep their time.
func (r *replay) padFactors() []float32 {
	if r.pad == nil {
		return r.padScales()
	}
	r.pad.once.Do(func() { r.pad.f = r.padScales() })
	return r.pad.f
}

func (r *replay) padScales() []float32 {
	f := make([]float32, len(r.kernels))
	for i := range f {
		f[i] = 1
	}
	if len(r.bounds) < 2 {
		return f
	}
	type key struct {
		name int32
		n    int
	}
	type launch struct {
		i    int
		size float64
	}
	var per []map[key]launch
	var counts []map[int32]int
	r.eachStep(func(_ int, lo, hi float64) {
		m, seen := map[key]launch{}, map[int32]int{}
		counts = append(counts, seen)
		j, _ := slices.BinarySearchFunc(r.kernels, lo, func(k replayKernel, x float64) int { return cmp.Compare(k.issued, x) })
		for ; j < len(r.kernels) && r.kernels[j].issued < hi; j++ {
			k := r.kernels[j]
			if k.copy != 0 || k.name < 0 {
				continue
			}
			kk := key{k.name, seen[k.name]}
			seen[k.name]++
			m[kk] = launch{j, r.kernelSize(k)}
		}
		per = append(per, m)
	})
	for kk := range per[0] {
		most := 0.0
		for s, m := range per {
			x, ok := m[kk]
			if !ok || !(x.size > 0) || counts[s][kk.name] != counts[0][kk.name] {
				most = 0
				break
			}
			most = max(most, x.size)
		}
		if most == 0 {
			continue
		}
		for _, m := range per {
			x := m[kk]
			f[x.i] = float32(most / x.size)
		}
	}
	return f
}

// kernelSize is what a kernel's launch works on, for padding: its op's
// bytes where the trace recorded its shapes, else its grid's blocks; 0
// where neither is known.
func (r *replay) kernelSize(k replayKernel) float64 {
	if k.opBytes > 0 {
		return float64(k.opBytes)
	}
	if k.cfg >= 0 {
		return float64(r.cfgs[k.cfg].grid.Size())
	}
	return 0
}

// padded is the window's kernel time a step, seconds, as traced and
// padded (padFactors).
func (r *replay) padded() (busy, padded float64) {
	f := r.padFactors()
	for i, k := range r.kernels {
		if k.copy == 0 {
			busy += float64(k.dur)
			padded += float64(k.dur) * float64(f[i])
		}
	}
	n := float64(max(r.steps, 1))
	return busy / n, padded / n
}
