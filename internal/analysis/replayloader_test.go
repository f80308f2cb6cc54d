package analysis

import (
	"math"
	"testing"

	"github.com/profan-dev/profan"
)

// TestLoaderNative: a main-process loader's span keeps its native calls'
// time whole only where the window's loader records cost more than
// (1 − minKeep) of its Python outside them (fixtures/host37's sent);
// where they fit (host30's gan), its time less its records' costs, as
// before.
func TestLoaderNative(t *testing.T) {
	const us = 1e-6
	for _, c := range []struct {
		frames uint16
		native uint8 // 255ths of the span
		nat    bool
		keep   float64
	}{
		// 1000 µs, 40% native (102/255): 600 µs of Python. 100 records
		// at 0.1 µs a Python call cost 50 µs: they fit.
		{100, 102, false, 1 - 50.0/1000},
		// 200 records at 1 µs a Python call cost 1000 µs, more than 0.8
		// of the 600 µs: the native 400 µs whole, the Python at minKeep.
		{200, 102, true, (400 + 0.2*600) / 1000},
		// The same records with no native call: at minKeep, as before.
		{200, 0, true, 0.2},
	} {
		pc := 0.1 * us
		if c.frames == 200 {
			pc = 1 * us
		}
		r := &replay{
			spans:  []profan.HostSpan{{Start: 0, Dur: 1000 * us, State: profan.HostData, Frames: c.frames, Native: c.native, Name: -1}},
			lo:     0,
			hi:     1,
			pyCall: pc,
		}
		if got := r.loaderNative(); got != c.nat {
			t.Errorf("%d frames, native %d/255: loaderNative %v, want %v", c.frames, c.native, got, c.nat)
		}
		r.loaderNat = c.nat
		if got := r.loaderKeep(0); math.Abs(got-c.keep) > 1e-6 {
			t.Errorf("%d frames, native %d/255: keeps %.4f, want %.4f", c.frames, c.native, got, c.keep)
		}
	}
}
