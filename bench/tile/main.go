// Command tile writes a large ncu export for benchmarks by repeating the
// rows of a real capture with renumbered launch IDs.
//
//	go run ./bench/tile -in fixtures/ncu/saxpy.full40.details.csv -mb 100 -out /tmp/big.csv
//	go run ./bench/tile -in ingest/testdata/nvprof/magus-gtx1080ti-matrixMul-trace.csv -trace 600000 -out /tmp/trace.csv
//	go run ./bench/tile -in fixtures/timeline/decode_sync.json.gz -torch -mb 1000 -out /tmp/trace.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/profan-dev/profan/internal/tile"
)

func main() {
	in := flag.String("in", "fixtures/ncu/saxpy.full40.details.csv", "real ncu details or raw export to tile")
	mb := flag.Int64("mb", 100, "size to reach, in MB (10^6 bytes)")
	out := flag.String("out", "", "output file (required)")
	table := flag.Bool("table", false, "write the bare CSV table, without the profiler's message lines")
	trace := flag.Int("trace", 0, "tile an nvprof gpu-trace (-in) to at least this many kernel launches instead of -mb")
	torch := flag.Bool("torch", false, "tile a PyTorch profiler trace (-in, .json or .json.gz) to -mb")
	flag.Parse()
	if *out == "" {
		fail("-out is required")
	}
	f, err := os.Create(*out)
	if err != nil {
		fail(err)
	}
	var n int64
	var count string // the events or launches written, where counted
	switch {
	case *torch:
		var events int
		n, events, err = tile.Torch(f, *in, *mb*1000*1000)
		count = fmt.Sprintf(", %d events", events)
	case *trace > 0:
		var launches int
		n, launches, err = tile.Trace(f, *in, *trace, !*table)
		count = fmt.Sprintf(", %d launches", launches)
	case *table:
		n, err = tile.Table(f, *in, *mb*1000*1000)
	default:
		n, err = tile.Details(f, *in, *mb*1000*1000)
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fail(err)
	}
	fmt.Printf("%s: %d bytes%s\n", *out, n, count)
}

func fail(why any) {
	fmt.Fprintln(os.Stderr, "tile:", why)
	os.Exit(2)
}
