package sass_test

import (
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/ingest"
	"github.com/profan-dev/profan/internal/sass"
)

// TestCodeLists: each list of a Code is the one its readers made for
// themselves before it (made here as they made it) and is made once
// (fixtures/classes' source pages).
func TestCodeLists(t *testing.T) {
	files := []string{"../../fixtures/classes/classes.raw.csv.gz", "../../fixtures/classes/classes.source.cuda-sass.csv.gz"}
	kernels := 0
	_, err := ingest.ReadFiles(files, ingest.Options{}, func(_ *profan.Run, k *profan.Kernel) error {
		if len(k.Source) == 0 {
			return nil
		}
		kernels++
		c := sass.New(k.Source)
		check := func(list string, got, want any) {
			t.Helper()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("kernel %s: %s differs from the one made alone", k.ID, list)
			}
		}
		recs, at := c.Records()
		wantRecs, wantAt := ownRecords(k.Source)
		check("Instructions", c.Instructions(), slices.Collect(ownInstructions(k.Source)))
		check("Records", recs, wantRecs)
		check("Records' index", at, wantAt)
		check("AddressOrder", c.AddressOrder(), ownByAddress(wantRecs))
		check("ProgramOrder", c.ProgramOrder(), ownProgramOrder(k.Source))
		p := c.Program()
		wantP := ownProgram(k.Source)
		check("Program", p, wantP)
		if len(recs) == 0 {
			t.Errorf("kernel %s: no SASS on its source page", k.ID)
			return nil
		}
		// Each list asked for twice is the one list (a second call
		// returns the first's backing array).
		again, _ := c.Records()
		o1, o2 := c.AddressOrder(), c.AddressOrder()
		i1, i2 := c.Instructions(), c.Instructions()
		p1, p2 := c.ProgramOrder(), c.ProgramOrder()
		if &again[0] != &recs[0] || &o1[0] != &o2[0] || c.Program() != p || &i1[0] != &i2[0] || &p1[0] != &p2[0] {
			t.Errorf("kernel %s: a list made twice", k.ID)
		}
		if !c.Of(k.Source) || c.Of(slices.Clone(k.Source)) || (*sass.Code)(nil).Of(k.Source) {
			t.Errorf("kernel %s: Of does not tell its page from a copy", k.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if kernels == 0 {
		t.Error("no kernel with a source page")
	}
}

func ownInstructions(rec []profan.SourceRecord) func(func(profan.SourceRecord) bool) {
	return func(yield func(profan.SourceRecord) bool) {
		seen := map[string]bool{}
		for _, s := range rec {
			if s.Address == "" || seen[s.Address] {
				continue
			}
			seen[s.Address] = true
			if !yield(s) {
				return
			}
		}
	}
}

func ownRecords(page []profan.SourceRecord) (recs []profan.SourceRecord, at map[string]int) {
	at = map[string]int{}
	for _, s := range page {
		if s.SASS == "" || s.Address == "" {
			continue
		}
		if _, dup := at[s.Address]; dup {
			continue
		}
		at[s.Address] = len(recs)
		recs = append(recs, s)
	}
	return recs, at
}

func addr(s string) (uint64, error) {
	return strconv.ParseUint(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64)
}

func ownByAddress(recs []profan.SourceRecord) []profan.SourceRecord {
	var out []profan.SourceRecord
	for _, s := range recs {
		if _, err := addr(s.Address); err == nil {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { a, _ := addr(out[i].Address); b, _ := addr(out[j].Address); return a < b })
	return out
}

func ownProgramOrder(page []profan.SourceRecord) []profan.SourceRecord {
	recs := slices.Collect(ownInstructions(page))
	sort.SliceStable(recs, func(i, j int) bool { a, _ := addr(recs[i].Address); b, _ := addr(recs[j].Address); return a < b })
	return recs
}

func ownProgram(page []profan.SourceRecord) *sass.Program {
	recs, _ := ownRecords(page)
	sort.SliceStable(recs, func(i, j int) bool { a, _ := addr(recs[i].Address); b, _ := addr(recs[j].Address); return a < b })
	p := &sass.Program{Recs: recs, At: map[string]int{}}
	for i, s := range recs {
		p.At[s.Address] = i
		op, args := sass.Fields(s.SASS)
		p.Ops, p.Args = append(p.Ops, op), append(p.Args, args)
	}
	return p
}
