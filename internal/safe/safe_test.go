package safe

import "testing"

func TestTerm(t *testing.T) {
	for in, want := range map[string]string{
		"transposeNaive(float *, const float *)": "transposeNaive(float *, const float *)",
		"k\x1b[31mred\x1b[0m":                    `k\x1b[31mred\x1b[0m`,
		"k\x1b]0;title\x07":                      `k\x1b]0;title\a`,
		"abc\u202edcba":                          `abc\u202edcba`,
		"tab\there\r\n":                          "tab\there\\r\\n",
		"\u009b31m":                              `\u009b31m`,
		"bad\xffbyte":                            `bad\xffbyte`,
		"µs ok":                                  "µs ok",
	} {
		if got := Term(in); got != want {
			t.Errorf("Term(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNeeded(t *testing.T) {
	for in, want := range map[string]bool{"plain, text": false, "µs": false, "a\tb": false, "a\x1bb": true, "x\u202ey": true, "\u0085": true} {
		if got := Needed([]byte(in)); got != want {
			t.Errorf("Needed(%q) = %v", in, got)
		}
	}
}
