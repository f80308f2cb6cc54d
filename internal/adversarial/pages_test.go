package adversarial

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/profan-dev/profan/internal/ingest"
)

// captureCases hold what one capture is: the pages of one report read as
// one, pages of another capture refused, no number the page does not
// print read as measured, exports cut at a line end refused where their
// blocks' shape shows it, and files rewritten while they are read.
func captureCases(fs []*fixture, base []byte) []*tcase {
	var cs []*tcase
	cs = append(cs, crossCaptureCases(base)...)
	cs = append(cs, cutBlockCases(fs)...)
	cs = append(cs, inventedCases()...)
	cs = append(cs, changingFileCases()...)
	return cs
}

// crossCaptureCases: the pages of one report are one capture (each launch
// once); pages of another capture beside them are refused, naming both.
func crossCaptureCases(base []byte) []*tcase {
	const cat = "cross-capture pages"
	calib := []string{abs("fixtures/calib/calib.raw.csv.gz"), abs("fixtures/calib/calib.details.csv.gz"), abs("fixtures/calib/calib.source.cuda-sass.csv.gz")}
	once := func(name string, want string, args ...string) *tcase {
		c := cmdCase(cat, name, "0", "", nil, args...)
		c.check = func(e *env, r *result) string {
			if !strings.Contains(string(r.stdout), want) {
				return fmt.Sprintf("the output does not say %q: %s", want, firstLine(r.stdout))
			}
			return ""
		}
		return c
	}
	cs := []*tcase{
		once("raw, details and source pages of one report: its launches once", "126 launches of 42 kernels · 53.145 ms", append([]string{"analyze"}, calib...)...),
		once("the same pages in another order", "126 launches of 42 kernels · 53.145 ms", "analyze", calib[2], calib[1], calib[0]),
		once("details and --print-details all pages with the raw page", "96 launches of 31 kernels", "analyze", abs("fixtures/check5/mbv2.full.details.csv.gz"), abs("fixtures/check5/mbv2.full.details-all.csv.gz"), abs("fixtures/check5/mbv2.full.raw.csv.gz")),
		cmdCase(cat, "an H200 details page with an H100 raw page", "2", "but from another capture (process ID 1239 here, 1065 there)", nil,
			"analyze", abs("fixtures/ncu/copy.metrics.details.csv"), abs("fixtures/ncu-h100/copy.metrics.raw.csv")),
		cmdCase(cat, "details and raw pages of two runs of one program", "2", "but from another capture", nil,
			"analyze", abs("fixtures/pytorch/train.full.raw.csv.gz"), abs("fixtures/pytorch/train.full.details.csv.gz")),
		cmdCase(cat, "an H100 source page with an H200 details page", "2", "would get the source of launch 41", nil,
			"analyze", abs("fixtures/ncu/saxpy.details.csv"), calib[2]),
		cmdCase(cat, "an H200 source page of another program with an H100 details page", "2", "this source page matches no launch", nil,
			"analyze", abs("fixtures/ncu-h100/transpose.import.details.csv"), abs("fixtures/ncu/copy.source.cuda-sass.csv")),
		cmdCase(cat, "gate on pages of two captures", "2", "another capture", nil,
			"gate", abs("fixtures/ncu/copy.metrics.details.csv"), abs("fixtures/ncu-h100/copy.metrics.raw.csv")),
	}
	for _, pair := range [][3]string{
		{"an H200 details page with an H100 raw page", "fixtures/ncu/copy.metrics.details.csv", "fixtures/ncu-h100/copy.metrics.raw.csv"},
		{"an H100 source page with an H200 details page", "fixtures/ncu/saxpy.details.csv", "fixtures/calib/calib.source.cuda-sass.csv.gz"},
	} {
		cs = append(cs, &tcase{cat: cat, name: "ingest " + pair[0], codes: "2", dbKeep: true,
			prep: func(e *env) []string {
				e.write("db", base)
				return []string{"ingest", "--db", "db", abs(pair[1]), abs(pair[2])}
			}})
	}
	return cs
}

// cutBlockCases: an export cut at a line end inside its last block, where
// the page's other blocks show the block's shape, is refused at in.csv's
// line, never read as whole.
func cutBlockCases(fs []*fixture) []*tcase {
	const cat = "cut block shapes"
	var cs []*tcase
	cut := func(f *fixture, what string, n int) {
		cs = append(cs, inputCase(cat, fmt.Sprintf("cut at the line end of line %d, %s", n, what), f, []byte(join(f.lines[:n])), refused, intact))
	}
	// A details page: the last launch's metric rows (a launch has 50).
	d := fx(fs, "ncu-details")
	last := len(d.lines) - 1
	for !strings.HasPrefix(d.lines[last], `"8",`) || strings.HasPrefix(d.lines[last-1], `"8",`) {
		last--
	}
	for _, k := range []int{1, 5, 20, 35} {
		cut(d, "inside the last launch", last+k)
	}
	// A source page (sass view, each block printed twice): inside the
	// last block.
	s := fx(fs, "ncu-source")
	lastBlock := len(s.lines) - 1
	for !strings.HasPrefix(s.lines[lastBlock], `"Kernel Name"`) {
		lastBlock--
	}
	for _, k := range []int{2, 5, 9} {
		cut(s, "inside the last block", lastBlock+k)
	}
	// An ncu summary page: the last kernel's metric rows (a kernel has 47).
	sm := fx(fs, "ncu-summary")
	for _, k := range []int{2, 20} {
		cut(sm, "inside the last kernel", len(sm.lines)-47+k)
	}
	// Summaries whose shares of the time sum to 100%.
	ks := fx(fs, "nsys-kern-sum")
	for _, k := range []int{3, 10, 30} {
		cut(ks, "a kernel summary's rows lost", ks.hdr+1+k)
	}
	nv := fx(fs, "nvprof-summary")
	api := 0
	for i, l := range nv.lines {
		if strings.Contains(l, `"cudaMalloc"`) {
			api = i
		}
	}
	for _, k := range []int{0, 1} { // past them the shares lost are under the rounding
		cut(nv, "the API calls' rows lost", api+k)
	}
	return cs
}

// inventedCases: a value the details page does not print is missing or an
// estimate said as one, never quoted or gated as measured.
func inventedCases() []*tcase {
	const cat = "invented values"
	details := abs("fixtures/calib/calib.details.csv.gz")
	jsonCase := func(name string, check func(k map[string]any) string, args ...string) *tcase {
		c := cmdCase(cat, name, "0", "", nil, args...)
		c.check = func(e *env, r *result) string {
			var out struct {
				Kernels []map[string]any `json:"kernels"`
			}
			if err := json.Unmarshal(r.stdout, &out); err != nil || len(out.Kernels) == 0 {
				return fmt.Sprintf("no kernels in the JSON (%v)", err)
			}
			for _, k := range out.Kernels {
				if f := check(k); f != "" {
					return f
				}
			}
			return ""
		}
		return c
	}
	return []*tcase{
		jsonCase("an even split of loads' and stores' sectors is an estimate", func(k map[string]any) string {
			est := fmt.Sprint(k["estimates"])
			if !strings.Contains(est, "gld_transactions") || !strings.Contains(est, "gst_transactions") {
				return "gld_transactions and gst_transactions are not listed as estimates: " + est
			}
			b, _ := json.Marshal(k["findings"])
			if strings.Contains(string(b), "move 25165824 sectors") || strings.Contains(string(b), "gld_transactions=") {
				return "a finding quotes the split as read: " + string(b)
			}
			return ""
		}, "analyze", "--format", "json", "--kernel", "^aosUpdateX", details),
		jsonCase("no FLOP rate from 'close to 1%' of the peak", func(k map[string]any) string {
			m, _ := k["metrics"].(map[string]any)
			if v, ok := m["flop_throughput"]; ok {
				return fmt.Sprintf("flop_throughput %v, derived from rule prose", v)
			}
			return ""
		}, "analyze", "--format", "json", abs("fixtures/ncu/saxpy.details.csv")),
		{cat: cat, name: "a gate never reads an estimate as measured", codes: "1",
			prep: func(e *env) []string {
				return []string{"gate", "--require", "gld_transactions < 1e15", "--kernel", "^aosUpdateX", details}
			},
			check: func(e *env, r *result) string {
				if !strings.Contains(string(r.stdout), "gld_transactions: not in this export") {
					return "the gate checked an estimate: " + firstLine(r.stdout)
				}
				return ""
			}},
	}
}

// changingFileCases: an export rewritten in place while a multi-file
// ingest reads it is stored as one version, whole, with that version's
// digest, or refused; never one version's kernels under another's digest.
func changingFileCases() []*tcase {
	const cat = "files changing under the reader"
	return []*tcase{{cat: cat, name: "the second file of an ingest rewritten again and again", custom: func(e *env) string {
		read := func(p string) []byte {
			b, err := os.ReadFile(abs(p))
			if err != nil {
				panic(setupError{err})
			}
			return b
		}
		first := e.write("first.csv", read("fixtures/ncu/copy.details.csv"))
		versions := [][]byte{read("fixtures/ncu/saxpy.details.csv"), read("fixtures/ncu/transpose.details.csv")}
		want := map[string]int{} // digest → kernel records
		for i, v := range versions {
			p := e.write(fmt.Sprintf("v%d.csv", i), v)
			d, err := ingest.DigestOf(p)
			if err != nil {
				panic(setupError{err})
			}
			want[d] = []int{1, 5}[i]
		}
		d, _ := ingest.DigestOf(first)
		want[d] = 9
		for round := range 3 {
			dir := e.path(fmt.Sprintf("round%d", round))
			os.Mkdir(dir, 0o755)
			changing := filepath.Join(dir, "changing.csv")
			os.WriteFile(changing, versions[0], 0o644)
			var stop atomic.Bool
			var wg sync.WaitGroup
			wg.Go(func() {
				for i := 1; !stop.Load(); i++ {
					os.WriteFile(changing, versions[i%2], 0o644)
				}
			})
			r := runProfan(dir, []string{"ingest", "--db", "db", first, changing}, nil)
			stop.Store(true)
			wg.Wait()
			if f := generic(r); len(f) > 0 {
				return strings.Join(f, "; ")
			}
			if r.code != 0 && r.code != 2 {
				return fmt.Sprintf("round %d: exit %d: %s", round, r.code, firstLine(r.stderr))
			}
			db, err := sql.Open("sqlite3", "file:"+filepath.Join(dir, "db")+"?mode=ro")
			if err != nil {
				continue // nothing stored
			}
			rows, err := db.Query("SELECT digest, kernels FROM runs")
			if err != nil {
				db.Close()
				continue
			}
			for rows.Next() {
				var digest string
				var n int
				rows.Scan(&digest, &n)
				if w, ok := want[digest]; !ok || w != n {
					rows.Close()
					db.Close()
					return fmt.Sprintf("round %d: a run of %d kernels stored under digest %s, which is no version's with that many", round, n, digest)
				}
			}
			rows.Close()
			db.Close()
		}
		return ""
	}}}
}
