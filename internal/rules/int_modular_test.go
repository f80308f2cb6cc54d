package rules_test

import (
	"strings"
	"testing"
)

// TestIntDivisionModular holds which 64-bit divisions are read as modular
// arithmetic (a division's remainder feeding the next one's dividend),
// whose fix is a Barrett reduction, and which are not (a hash's or an
// index's division, whose values the twins measured in 32 bits).
func TestIntDivisionModular(t *testing.T) {
	skipShort(t)
	for _, c := range []struct {
		files   []string
		kernel  string
		modular bool
	}{
		{[]string{"../../fixtures/sol-check6/sol_check6.raw.csv.gz", "../../fixtures/sol-check6/sol_check6.source.cuda-sass.csv.gz"},
			"void lcgMod<0>(unsigned long long *, const unsigned int *, unsigned long long, unsigned long long, unsigned long long, unsigned long long, int, int)", true},
		{[]string{"../../fixtures/sol-check12/sol_check12.raw.csv.gz", "../../fixtures/sol-check12/sol_check12.source.cuda-sass.csv.gz"},
			"void powMod<0>(unsigned int *, const unsigned int *, unsigned long long, unsigned long long, int)", true},
		{[]string{"../../fixtures/sol-check10/sol_check10.raw.csv.gz", "../../fixtures/sol-check10/sol_check10.source.cuda-sass.csv.gz"},
			"void bucketMod<unsigned long long>(unsigned int *, const unsigned int *, T1, int)", false},
		{[]string{"../../fixtures/sol-check8/sol_check8.raw.csv.gz", "../../fixtures/sol-check8/sol_check8.source.cuda-sass.csv.gz"},
			"void tsSplit<0>(unsigned int *, const unsigned long long *, unsigned long long, int)", false},
		{[]string{"../../fixtures/sol-check7/sol_check7.raw.csv.gz", "../../fixtures/sol-check7/sol_check7.source.cuda-sass.csv.gz"},
			"void sketchIdx<0>(unsigned int *, const unsigned long long *, unsigned long long, int)", false},
	} {
		k := calibration(t, c.files...)[c.kernel]
		if k == nil {
			t.Fatalf("%s not in %v", c.kernel, c.files)
		}
		found := false
		for _, f := range k.launches[0].Findings {
			if f.Rule != "int-division" {
				continue
			}
			found = true
			if got := strings.Contains(f.Advice, "Barrett") && strings.Contains(f.Message, "modular"); got != c.modular {
				t.Errorf("%s: read as modular arithmetic %v, want %v: %s / %s", c.kernel, got, c.modular, f.Message, f.Advice)
			}
		}
		if !found {
			t.Errorf("%s: no int-division finding", c.kernel)
		}
	}
}
