package kernelname

import (
	"regexp"
	"strconv"
	"strings"
)

// maxTag bounds the part of a name Distinct adds to a display.
const maxTag = 48

var reQualifier = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*::`)

// Distinct makes the displays of different names different, in place:
// names whose displays are equal (at::multi_tensor_apply_kernel<…> of
// TensorListMetadata<2> and of TensorListMetadata<3>) each get, after the
// display, the smallest part of the name where it first differs from the
// others, the template argument around the first differing character:
// "at::multi_tensor_apply_kernel<BinaryOpListAlphaFunctor, plus, …>
// [TensorListMetadata<2>]". Equal names keep equal displays.
func Distinct(names, displays []string) {
	by := map[string][]int{}
	var order []string
	for i, d := range displays {
		if _, ok := by[d]; !ok {
			order = append(order, d)
		}
		by[d] = append(by[d], i)
	}
	for _, d := range order {
		idx := by[d]
		if len(idx) < 2 {
			continue
		}
		tags := map[string]int{}
		out := make([]string, len(idx))
		for k, i := range idx {
			first := -1
			for _, j := range idx {
				if names[j] == names[i] {
					continue
				}
				if at := firstDiff(names[i], names[j]); first < 0 || at < first {
					first = at
				}
			}
			if first < 0 {
				out[k] = d // the same name
				continue
			}
			tag := around(names[i], first)
			tags[tag]++
			out[k] = d + " [" + tag + "]"
		}
		for k, i := range idx {
			displays[i] = out[k]
			if out[k] != d && tags[strings.TrimSuffix(strings.TrimPrefix(out[k], d+" ["), "]")] > 1 {
				displays[i] = d + " [#" + strconv.Itoa(k+1) + "]" // the parts alike too: number them
			}
		}
	}
}

// firstDiff is the index of the first byte where a and b differ.
func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// around is the template argument of s that holds byte i, without its
// qualifiers: the innermost Name<...> enclosing i, or the word at i.
func around(s string, i int) string {
	i = min(i, len(s)-1)
	// The innermost '<' still open at i.
	depth, open := 0, -1
	for j := i; j >= 0; j-- {
		switch s[j] {
		case '>':
			if j != i {
				depth++
			}
		case '<':
			if depth == 0 {
				open = j
			} else {
				depth--
			}
		}
		if open >= 0 {
			break
		}
	}
	var tag string
	if open > 0 {
		start := open
		for start > 0 && isWord(s[start-1]) {
			start--
		}
		end := matchingClose(s, open)
		if end < 0 {
			end = len(s) - 1
		}
		tag = s[start : end+1]
		if start == open || strings.Count(tag, "<") > 3 {
			tag = word(s, i) // an outer argument list: the word says more
		}
	} else {
		tag = word(s, i)
	}
	tag = reQualifier.ReplaceAllString(strings.Join(strings.Fields(tag), " "), "")
	if len(tag) > maxTag {
		tag = clipTo(tag, maxTag)
	}
	return tag
}

// word is the identifier or number around byte i of s.
func word(s string, i int) string {
	a, b := i, i
	for a > 0 && isWord(s[a-1]) {
		a--
	}
	for b < len(s) && isWord(s[b]) {
		b++
	}
	if a == b {
		return s[i : i+1]
	}
	return s[a:b]
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func clipTo(s string, n int) string {
	cut := n - len("…")
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
