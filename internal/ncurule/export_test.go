package ncurule

import "sort"

// Rules lists the ncu rules whose numbers are read.
func Rules() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range templates {
		if !seen[t.rule] {
			seen[t.rule] = true
			out = append(out, t.rule)
		}
	}
	sort.Strings(out)
	return out
}
