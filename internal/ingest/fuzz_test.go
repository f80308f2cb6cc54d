package ingest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/profan-dev/profan"
)

// fuzzSeedLimit caps a seed: the fuzzer mutates small inputs best, and the
// first 64 KB of an export hold its preamble, header and first rows.
const fuzzSeedLimit = 64 << 10

// fuzzHangLimit is how long one input may take (all its reads together).
const fuzzHangLimit = 10 * time.Second

// ncuFormats are forced in FuzzRead, so that each ncu importer also meets
// headers that are not its own (as with --format).
var ncuFormats = []string{"ncu-details", "ncu-raw", "ncu-summary", "ncu-source"}

// FuzzRead reads arbitrary bytes, sniffed and with each ncu importer forced.
// Property: Read never panics; a run it returns without error is valid and
// prints; a sniffed run reads the same again and through a Sink.
func FuzzRead(f *testing.F) {
	skipShort(f)
	var seeds []string
	filepath.WalkDir("testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path == filepath.Join("testdata", "fuzz") {
			return filepath.SkipDir // the fuzzer's own corpus replays anyway
		}
		if d.Type().IsRegular() && !strings.HasSuffix(path, ".got") {
			seeds = append(seeds, path)
		}
		return nil
	})
	fixtures, _ := filepath.Glob(filepath.Join(ncuFixtureDir, "*.csv"))
	seeds = append(seeds, fixtures...)
	if len(seeds) < 50 {
		f.Fatalf("only %d seed files", len(seeds))
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > fuzzSeedLimit {
			data = data[:fuzzSeedLimit]
		}
		f.Add(data)
	}
	for _, seed := range mutationSeeds(f) {
		f.Add(seed) // an interloper inside a table
	}
	for _, c := range hostileCases(f) {
		if len(c.in) > fuzzSeedLimit {
			c.in = c.in[len(c.in)-fuzzSeedLimit:] // the tail: where the cause sits
		}
		f.Add(c.in)
	}
	f.Add([]byte(ncuDetailsHeader + ncuDetailsRow("k(int)", "gpu__time_duration.sum", "us", "1.5")))
	f.Add([]byte(ncuSummaryHeader + `"1","copy","127.0.0.1","k(int)","(256, 1, 1)","(16384, 1, 1)","0","9.0","4","S","launch__grid_size","","16,384","16,384","16,384"` + "\n"))
	f.Add([]byte("\xFF\xFE\"\x00I\x00D\x00\"\x00"))

	f.Fuzz(func(t *testing.T, data []byte) {
		// The fuzzer has no time limit per input: a hang would only stall
		// it. Crash instead, so that it records the input.
		hang := time.AfterFunc(fuzzHangLimit, func() { panic(fmt.Sprintf("Read hangs on a %d-byte input", len(data))) })
		defer hang.Stop()
		for _, format := range append([]string{""}, ncuFormats...) {
			run, err := Read(bytes.NewReader(data), "fuzz.csv", Options{Format: format}, Sink{})
			if err != nil {
				continue
			}
			if err := run.CheckValid(); err != nil {
				t.Fatalf("format %q: Read succeeded with an invalid run: %v", format, err)
			}
			got := run.String()
			if format != "" {
				continue
			}
			again, err := Read(bytes.NewReader(data), "fuzz.csv", Options{}, Sink{})
			if err != nil || again.String() != got {
				t.Fatalf("a second Read differs (err %v)", err)
			}
			// Through a Sink: the same kernels, none left in the run.
			var ks strings.Builder
			sunk, err := Read(bytes.NewReader(data), "fuzz.csv", Options{}, Sink{
				Kernel: func(_ *profan.Run, k *profan.Kernel) error { ks.WriteString(k.String()); return nil },
			})
			if err != nil {
				t.Fatalf("Read with a Sink failed: %v", err)
			}
			var want strings.Builder
			for _, k := range run.Kernels {
				want.WriteString(k.String())
			}
			if len(sunk.Kernels) != 0 || ks.String() != want.String() {
				t.Fatalf("the Sink got other kernels than the run")
			}
		}
	})
}

// skipShort skips, with -short (the edit-test loop), a test that reads
// every fixture or a fuzz target's seed corpus; CI runs them, and -fuzz
// is never short.
func skipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("every fixture or seed: runs without -short, as CI does")
	}
}
