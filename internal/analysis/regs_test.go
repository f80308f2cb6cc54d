package analysis

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var regOracles = []struct {
	re   *regexp.Regexp
	base int
}{{regexp.MustCompile(`\bR(\d+)\b(\.64)?`), 0}, {regexp.MustCompile(`\bUR(\d+)\b(\.64)?`), UniformBase}}

// regsByRE is what registers and SASSRegs were before they were scanned
// by hand: the oracle the scanner is held to.
func regsByRE(operand string) []int {
	var out []int
	for _, re := range regOracles {
		for _, m := range re.re.FindAllStringSubmatch(operand, -1) {
			n, err := strconv.Atoi(m[1])
			if err != nil {
				continue
			}
			out = append(out, re.base+n)
			if m[2] != "" {
				out = append(out, re.base+n+1)
			}
		}
	}
	return out
}

var regOperands = []string{
	"", "R4", "RZ", "R4.64", "[R4.64]", "[R2.64+0x10]", "desc[UR4][R2.64]", "[R5+UR4+0x10]",
	"UR4", "UR4.64", "R4a", "aR4", "R12.64R3", "R1.640", "R99999999999999999999", "-R3", "|R7|",
	"R4.reuse", "c[0x0][R3]", "R_1", "UR", "R", "R4.6", "R4.64.64", "SR_CTAID.X", "UP0", "UUR4",
	"[R2.64+UR6], R4.64", "R1,R2,UR3", "0xR4", "PT, R4, R5.H1",
}

func TestRegsMatchRegexp(t *testing.T) {
	for _, s := range regOperands {
		if got, want := SASSRegs(s), regsByRE(s); !slices.Equal(got, want) {
			t.Errorf("SASSRegs(%q) = %v, the regular expression's %v", s, got, want)
		}
	}
}

// TestRegsRandom holds the scanner to the oracle on operands made of the
// characters that matter (a test, not a fuzz target: CI fuzzes parsers,
// and this is a few thousand cases of a scanner with an oracle).
func TestRegsRandom(t *testing.T) {
	const alphabet = "RU0123456789.64[]+-_ ,|aZPx"
	rng := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, 0, 16)
	for range 20000 {
		b = b[:0]
		for range rng.IntN(16) {
			b = append(b, alphabet[rng.IntN(len(alphabet))])
		}
		s := string(b)
		if got, want := SASSRegs(s), regsByRE(s); !slices.Equal(got, want) {
			t.Fatalf("SASSRegs(%q) = %v, the regular expression's %v", s, got, want)
		}
	}
}

// TestOpcodeAsFields holds Opcode to what it was: the first of
// strings.Fields' fields that is not a predicate guard.
func TestOpcodeAsFields(t *testing.T) {
	old := func(sass string) string {
		f := strings.Fields(sass)
		if len(f) > 0 && strings.HasPrefix(f[0], "@") {
			f = f[1:]
		}
		if len(f) == 0 {
			return ""
		}
		return f[0]
	}
	const alphabet = "@!P0 \t\n\u00a0\u2003LDG.E R4, [R2.64]\xff"
	rng := rand.New(rand.NewPCG(3, 4))
	cases := append([]string{}, regOperands...)
	cases = append(cases, "@P0 LDG.E R4, [R2.64]", "  @!P1  BRA 0x40", "@P0", " ", "\u00a0IADD3 R1", "EXIT")
	for range 20000 {
		r := []rune(alphabet)
		b := make([]rune, rng.IntN(12))
		for i := range b {
			b[i] = r[rng.IntN(len(r))]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := Opcode(s), old(s); got != want {
			t.Fatalf("Opcode(%q) = %q, strings.Fields gives %q", s, got, want)
		}
	}
}
