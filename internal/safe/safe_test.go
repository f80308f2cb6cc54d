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

// TestNeededEveryOffset checks the word-at-a-time scan of Needed against
// Term at every position of a line, for each kind of byte that matters.
func TestNeededEveryOffset(t *testing.T) {
	base := `"0","821","calib","127.0.0.1","void strideCopy<1>(float *, const float *)","1"`
	for _, bad := range []string{"\x1b", "\x00", "\x7f", "\t", "\u202e", "é", "\x9b", "\xff"} {
		for i := 0; i <= len(base); i++ {
			s := base[:i] + bad + base[i:]
			if got, want := Needed([]byte(s)), Term(s) != s; got != want {
				t.Fatalf("Needed(%q) = %v, want %v", s, got, want)
			}
		}
	}
	if Needed([]byte(base)) {
		t.Errorf("Needed(%q) = true", base)
	}
}

// TestPlainEveryOffset checks that Plain, which lets a line skip every other
// check, holds only for printable ASCII and tabs, wherever the odd byte is.
func TestPlainEveryOffset(t *testing.T) {
	base := `"0","821","calib","127.0.0.1","void strideCopy<1>(float *, const float *)","1"`
	if !Plain([]byte(base)) || !Plain([]byte(base+"\t")) || !Plain(nil) {
		t.Errorf("Plain(%q) = false", base)
	}
	for i := 0; i <= len(base); i++ {
		if s := base[:i] + "\t" + base[i:]; !Plain([]byte(s)) {
			t.Fatalf("Plain(%q) = false", s)
		}
	}
	for _, bad := range []string{"\x1b", "\x00", "\x7f", "\u202e", "é", "\x9b", "\xff", "\r", "\n"} {
		for i := 0; i <= len(base); i++ {
			if s := base[:i] + bad + base[i:]; Plain([]byte(s)) {
				t.Fatalf("Plain(%q) = true", s)
			}
		}
	}
}
