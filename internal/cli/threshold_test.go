package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestThresholdAtEveryUnitSpelling gates each kernel of a real export at
// exactly its own median, written in every unit and number spelling the
// grammar allows: a threshold means the same whatever unit it is written
// in (a kernel of exactly 72,288 ns passed "duration <= 72288ns" and
// failed "duration <= 72.288us").
func TestThresholdAtEveryUnitSpelling(t *testing.T) {
	skipShort(t)
	t.Parallel()
	file := fx + "copy.details.csv"
	args0 := []string{"gate", "--format", "json", file, "--require", "duration >= 0s"}
	metrics := []string{"achieved_occupancy", "dram_utilization", "dram_peak_bandwidth", "waves_per_sm"}
	args := args0
	for _, m := range metrics {
		args = append(args, "--require", m+" >= 0")
	}
	out, errOut, code := run(t, args...)
	if code != ExitOK {
		t.Fatalf("gate: exit %d: %s", code, errOut)
	}
	var rep struct {
		Checks []struct {
			Kernel, Kind, Metric, Unit string
			New                        *float64
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range rep.Checks {
		if c.Kind != "require" || c.New == nil {
			continue
		}
		name := c.Kernel
		for _, v := range spellings(c.Metric, *c.New) {
			for op, want := range map[string]ExitCode{"<=": ExitOK, ">=": ExitOK, "==": ExitOK, "<": ExitFailed, ">": ExitFailed, "!=": ExitFailed} {
				cond := fmt.Sprintf("%s %s %s", c.Metric, op, v)
				_, errOut, code := run(t, "gate", "--kernel", "^"+regexp.QuoteMeta(name)+"$", "--require", cond, file)
				if code != want {
					t.Errorf("%s on %s (median %v): exit %d, want %d: %s", cond, name, *c.New, code, want, errOut)
				}
				n++
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d conditions checked", n)
	}
}

// spellings writes v, a value of metric in its base unit, in each unit and
// number spelling a threshold on the metric may take.
func spellings(metric string, v float64) []string {
	// The value as the shortest decimal that reads back as v, and as the
	// decimal of 15 digits a derived value (0.7654000000000001 of 76.54%)
	// stands for.
	var rs []*big.Rat
	for _, d := range []string{strconv.FormatFloat(v, 'e', -1, 64), strconv.FormatFloat(v, 'e', 14, 64)} {
		r, _ := new(big.Rat).SetString(d)
		if len(rs) == 0 || r.Cmp(rs[0]) != 0 {
			rs = append(rs, r)
		}
	}
	var out []string
	add := func(scale *big.Rat, units ...string) {
		for _, r := range rs {
			x := new(big.Rat).Quo(r, scale)
			for _, u := range units {
				out = append(out, exactString(x)+u, sciString(x)+u)
				if g := grouped(exactString(x)); g != "" {
					out = append(out, g+u)
				}
			}
		}
	}
	one := big.NewRat(1, 1)
	switch metric {
	case "duration":
		add(big.NewRat(1, 1e9), "ns")
		add(big.NewRat(1, 1e6), "us", "µs", "μs")
		add(big.NewRat(1, 1e3), "ms")
		add(one, "s")
	case "achieved_occupancy":
		add(one, "")
		add(big.NewRat(1, 100), "%")
	case "dram_utilization":
		add(one, "", "%")
	default:
		add(one, "")
	}
	return out
}

// exactString is x as an exact decimal: its denominator divides a power of ten.
func exactString(x *big.Rat) string {
	s := x.FloatString(40)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	return s
}

// sciString is x in e notation, its mantissa's digits kept.
func sciString(x *big.Rat) string {
	s := exactString(x)
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	exp := len(intPart) - 1
	if strings.Trim(intPart, "0") == "" {
		exp = -(len(frac) - len(strings.TrimLeft(frac, "0"))) - 1
	}
	if len(digits) > 1 {
		return fmt.Sprintf("%s.%se%d", digits[:1], digits[1:], exp)
	}
	return fmt.Sprintf("%se%d", digits, exp)
}

// grouped is s with thousands separators, or "" when its integer part has
// three digits or fewer.
func grouped(s string) string {
	intPart, frac, dot := strings.Cut(s, ".")
	if len(intPart) <= 3 {
		return ""
	}
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if dot {
		b.WriteString("." + frac)
	}
	return b.String()
}

// TestDiffThresholdExact: a metric that moved by exactly --threshold is
// within it, written as a percentage or a ratio; a little less lists it.
func TestDiffThresholdExact(t *testing.T) {
	t.Parallel()
	a, b := "../../fixtures/ncu/series_v0.details.csv", "../../fixtures/ncu/series_v1.details.csv"
	type doc struct {
		Kernels []struct {
			Metrics []struct {
				Metric    string
				RelChange float64 `json:"rel_change"`
			}
		}
	}
	listed := func(threshold string) map[string]float64 {
		t.Helper()
		out, errOut, code := run(t, "diff", "--format", "json", "--threshold", threshold, a, b)
		if code != ExitOK {
			t.Fatalf("diff --threshold %s: %d %s", threshold, code, errOut)
		}
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatal(err)
		}
		m := map[string]float64{}
		for _, k := range d.Kernels {
			for _, x := range k.Metrics {
				m[x.Metric] = x.RelChange
			}
		}
		return m
	}
	moved := listed("0%")
	if len(moved) < 5 {
		t.Fatalf("only %d metrics moved", len(moved))
	}
	for metric, rel := range moved {
		if rel == 0 {
			continue
		}
		pct := strconv.FormatFloat(math.Abs(rel)*100, 'g', 15, 64)
		r, _ := new(big.Rat).SetString(pct)
		ratio := r.Add(r.Quo(r, big.NewRat(100, 1)), big.NewRat(1, 1)).FloatString(20)
		for _, th := range []string{pct + "%", pct, ratio + "x"} {
			if _, ok := listed(th)[metric]; ok {
				t.Errorf("%s moved by %v: listed past --threshold %s", metric, rel, th)
			}
		}
		less := strconv.FormatFloat(math.Abs(rel)*100*0.9999, 'g', 15, 64) + "%"
		if _, ok := listed(less)[metric]; !ok {
			t.Errorf("%s moved by %v: not listed past --threshold %s", metric, rel, less)
		}
	}
}
