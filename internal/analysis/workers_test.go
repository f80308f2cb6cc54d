package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
)

// TestWorkersPaceByBlock: the replay reads a multi-process DataLoader's
// workers as the step's pace only where the step's thread is blocked on
// them, by the iterator's waits for a batch that has not arrived, not
// by its get's length. fixtures/host35's flow (eight workers, no
// pin-memory thread) spends 2.9 to 3.7 ms a step in the queue's get,
// all but 0.07 to 0.2 ms of it the batch's transfer (its tensors
// unpickled from the workers' shared memory on the thread, the GPU busy
// throughout): no floor, the levers priced by the replay. host34's detr
// (two workers) likewise, 4.5 to 5.0 ms of 5 a step in the transfer.
// host15's audio.all (four workers, pinned) waits 48 to 437 ms a step
// on the pin thread's queue, the GPU idle: floored at its replayed step.
func TestWorkersPaceByBlock(t *testing.T) {
	if !host34Read || !host35Read {
		t.Skip("host34 and host35 are held out until their read")
	}
	for _, c := range []struct {
		trace   string
		floored bool
	}{
		{"host35/flow.noread.json.gz", false},
		{"host35/flow.default.json.gz", false},
		{"host34/detr.default.json.gz", false},
		{"host15/audio.all.json.gz", true},
	} {
		tl := fixtureGrouper(t, c.trace).Timeline
		w, ok := tl.Replay(analysis.Lever{})
		if !ok {
			t.Fatalf("%s: no replay", c.trace)
		}
		if got := w.Feed >= w.Base; got != c.floored {
			t.Errorf("%s: floored %v (feed %.3f ms, step %.3f ms), want %v", c.trace, got, 1e3*w.Feed, 1e3*w.Base, c.floored)
		}
	}
}
