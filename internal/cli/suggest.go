package cli

import (
	"fmt"
	"strings"

	"github.com/profan-dev/profan/internal/gpumodel"
)

// UsageError is bad input on the command line that needs no usage dump:
// an unknown metric, rule, GPU, format or command, with a suggestion. It
// exits 2 like a FlagError.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// unknownError says that what is not one of the known names, with "did you
// mean" the closest when one is close, else where to list them.
func unknownError(kind, what string, known []string, list string) error {
	msg := fmt.Sprintf("unknown %s %q", kind, what)
	if s := closest(what, known); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	} else if list != "" {
		msg += " (" + list + ")"
	}
	return &UsageError{msg: msg}
}

// closest returns the known name nearest to s by edit distance, when it is
// near enough to be a typo: at most a third of the longer name's length,
// and at most 4 edits; or a known name that s is a prefix or suffix of.
func closest(s string, known []string) string {
	ls := strings.ToLower(s)
	best, bestD := "", 1<<30
	for _, k := range known {
		lk := strings.ToLower(k)
		d := editDistance(ls, lk)
		if d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	limit := max(len(s), len(best)) / 3
	limit = min(max(limit, 1), 4)
	if bestD <= limit {
		return best
	}
	for _, k := range known {
		if len(s) >= 3 && (strings.HasPrefix(strings.ToLower(k), ls) || strings.HasSuffix(strings.ToLower(k), ls)) {
			return k
		}
	}
	return ""
}

// editDistance is the Damerau-Levenshtein distance (optimal string
// alignment) between a and b, by bytes.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// formatError is an unknown --format, with a suggestion.
func formatError(format string, known ...string) error {
	return unknownError("format", format, known, "want "+strings.Join(known, ", "))
}

// gpuNames are the GPU names --device takes.
func gpuNames() []string {
	var out []string
	for _, s := range gpumodel.Specs() {
		out = append(out, s.Name)
		out = append(out, s.Aliases...)
	}
	return out
}

// usageErrorf returns a UsageError: bad input named precisely enough that
// the usage would only bury it.
func usageErrorf(format string, args ...any) error {
	return &UsageError{msg: fmt.Sprintf(format, args...)}
}
