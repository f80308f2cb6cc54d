package analysis_test

import (
	"testing"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/ingest"
)

// TestUniformStrongLoads holds which strong (volatile) loads read one
// address in every thread of the grid, on real SASS: sol-check25's
// eqBands<0>, eight LDG.E.STRONG.SYS of the band gains through a const
// volatile pointer (line 536, [R2.64] to [R2.64+0x1c], R2 from the
// kernel's argument); none in its __ldg twin, none where the address
// is a block's own (sol-check15's volParam<0>, p + 2·blockIdx.x) or a
// thread's (sol-check10's volSum<0>, x[i] re-read sixteen times).
func TestUniformStrongLoads(t *testing.T) {
	for _, c := range []struct {
		set, kernel string
		want        int // uniform strong loads (distinct addresses)
		line        int // the line each is on, where want > 0
	}{
		{"sol-check25/sol_check25", "void eqBands<0>(float *, const float *, const float *, int)", 8, 536},
		{"sol-check25/sol_check25", "void eqBands<1>(float *, const float *, const float *, int)", 0, 0},
		{"sol-check15/sol_check15", "void volParam<0>(float *, const float *, const float *, int)", 0, 0},
		{"sol-check10/sol_check10", "void volSum<0>(float *, const float *, int)", 0, 0},
	} {
		files := []string{"../../fixtures/" + c.set + ".raw.csv.gz", "../../fixtures/" + c.set + ".source.cuda-sass.csv.gz"}
		found := false
		_, err := ingest.ReadFiles(files, ingest.Options{}, func(run *profan.Run, k *profan.Kernel) error {
			if found || k.DisplayName() != c.kernel {
				return nil
			}
			found = true
			u := analysis.UniformStrongLoads(analysis.Analyze(run, k, analysis.Options{}))
			if len(u) != c.want {
				t.Errorf("%s: %d uniform strong loads, want %d: %v", c.kernel, len(u), c.want, u)
			}
			for _, s := range k.Source {
				if u[s.Address] && s.SASS != "" && (s.Line != c.line || analysis.Opcode(s.SASS) != "LDG.E.STRONG.SYS") {
					t.Errorf("%s: %s at line %d, want LDG.E.STRONG.SYS at %d", c.kernel, s.SASS, s.Line, c.line)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !found {
			t.Fatalf("%s: %s not in the capture", c.set, c.kernel)
		}
	}
}
