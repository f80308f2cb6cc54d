package ingest

import (
	"bytes"
	"os"
	"testing"
)

// TestConcatenatedCaptures reads live ncu captures appended to one another,
// as CI logs and `cat a.csv b.csv` give them: each capture's program output
// (with commas: "offsets={0,1,8,32}") and banners sit between the previous
// capture's last row and the next header. Every launch of every capture is
// read, and the output lines are counted as skipped.
func TestConcatenatedCaptures(t *testing.T) {
	var all bytes.Buffer
	want := 0
	for _, f := range []string{"transpose.details.csv", "copy.details.csv", "misc.details.csv", "indirect.details.csv"} {
		b, err := os.ReadFile("../../fixtures/ncu/" + f)
		if err != nil {
			t.Fatal(err)
		}
		run, err := ReadFile("../../fixtures/ncu/"+f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want += len(run.Kernels)
		all.Write(b)
	}
	run, err := Read(&all, "concatenated.csv", Options{}, Sink{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Kernels) != want {
		t.Errorf("read %d launches of the concatenated captures, want %d", len(run.Kernels), want)
	}
	output := 0
	for _, m := range run.Messages {
		if m.Level == "output" {
			output++
		}
	}
	if output < 3 {
		t.Errorf("%d lines of program output kept, want the output of each capture", output)
	}
}
