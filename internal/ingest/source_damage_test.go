package ingest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourcePageDamage: damage to a real sass-view source page (ncu
// prints each block twice, addresses rise row by row, only a CUDA line's
// text may be wider than the header) is refused at its line, never read
// as another launch or shifted counters.
func TestSourcePageDamage(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(ncuFixtureDir, "matmul.source.sass.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	row := -1 // the first instruction row of the first block
	for i, l := range lines {
		if strings.HasPrefix(l, `"0x`) {
			row = i
			break
		}
	}
	if row < 0 {
		t.Fatal("no instruction row")
	}
	header := row - 1
	for _, tt := range []struct {
		name, want string
		edit       func(ls []string) []string
	}{
		{"a field doubled", "the header has", func(ls []string) []string {
			ls[row+2] = strings.Replace(ls[row+2], `",`, `","x",`, 1)
			return ls
		}},
		{"a comma appended", "the header has", func(ls []string) []string {
			ls[row+2] = strings.TrimRight(ls[row+2], "\r\n") + ",\n"
			return ls
		}},
		{"the header repeated", "column header repeated", func(ls []string) []string {
			return append(ls[:row+3:row+3], append([]string{ls[header]}, ls[row+3:]...)...)
		}},
		{"two rows swapped", "does not follow", func(ls []string) []string {
			ls[row+2], ls[row+3] = ls[row+3], ls[row+2]
			return ls
		}},
		{"cut after the header", "no rows", func(ls []string) []string {
			return ls[:row]
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ls := tt.edit(append([]string(nil), lines...))
			path := filepath.Join(t.TempDir(), "damaged.source.csv")
			if err := os.WriteFile(path, []byte(strings.Join(ls, "")), 0o644); err != nil {
				t.Fatal(err)
			}
			run, err := ReadFile(path, Options{})
			if err == nil {
				t.Fatalf("read %d kernels, want an error", len(run.Kernels))
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "damaged.source.csv:") {
				t.Errorf("error %q, want file:line and %q", err, tt.want)
			}
		})
	}
}
