package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/profan-dev/profan/internal/tile"
)

var bigOnce sync.Once
var bigPath string

// bigExport tiles a real 40-launch --set full capture to about 100 MB.
func bigExport(b *testing.B) string {
	bigOnce.Do(func() {
		dir, err := os.MkdirTemp("", "profan-bench")
		if err != nil {
			b.Fatal(err)
		}
		bigPath = filepath.Join(dir, "saxpy-100MB.details.csv")
		f, err := os.Create(bigPath)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tile.Details(f, "../../fixtures/ncu/saxpy.full40.details.csv", 100<<20); err != nil {
			b.Fatal(err)
		}
		f.Close()
	})
	return bigPath
}

// BenchmarkAnalyze100MB streams a 100 MB details export through the whole
// analysis and reports the peak heap: reading is streaming, so the peak
// stays a few MB whatever the file's size.
func BenchmarkAnalyze100MB(b *testing.B) {
	path := bigExport(b)
	fi, _ := os.Stat(path)
	b.SetBytes(fi.Size())
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	for i := 0; i < b.N; i++ {
		io, _, errOut := testStreams()
		io.Out = discard{}
		if code := Main([]string{"analyze", "--format", "json", path}, io); code != ExitOK {
			b.Fatalf("exit %d: %s", code, errOut)
		}
	}
	close(stop)
	b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
