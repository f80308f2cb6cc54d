package golden

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	lines := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, strings.Repeat("x", i+1))
		}
		return out
	}
	base := lines(10)
	inserted := append(append(append([]string{}, base[:4]...), "new"), base[4:]...)
	removed := append(append([]string{}, base[:7]...), base[8:]...)
	changed := append([]string{}, base...)
	changed[2] = "changed"
	for _, tc := range []struct {
		name      string
		want, got []string
		diff      string
	}{
		{"insert", base, inserted, "@@ want line 3, got line 3 @@\n  xxx\n  xxxx\n+ new\n  xxxxx\n  xxxxxx\n"},
		{"remove", base, removed, "@@ want line 6, got line 6 @@\n  xxxxxx\n  xxxxxxx\n- xxxxxxxx\n  xxxxxxxxx\n  xxxxxxxxxx\n"},
		{"change", base, changed, "@@ want line 1, got line 1 @@\n  x\n  xx\n- xxx\n+ changed\n  xxxx\n  xxxxx\n"},
		{"same", base, base, ""},
	} {
		got := Diff(strings.Join(tc.want, "\n"), strings.Join(tc.got, "\n"))
		if got != tc.diff {
			t.Errorf("%s: diff\n%s\nwant\n%s", tc.name, got, tc.diff)
		}
	}
	// Two changes far apart are two hunks.
	far := append([]string{}, base...)
	far[0], far[9] = "a", "b"
	if got := Diff(strings.Join(base, "\n"), strings.Join(far, "\n")); strings.Count(got, "@@ want") != 2 {
		t.Errorf("two changes far apart:\n%s", got)
	}
}
