package blob

import "testing"

// FuzzDecodeVerdict: a stored verdict's text, whatever another program or
// a damaged file put there, is read or refused, never a crash. The notes
// look-up finds no row, as in an empty database's text_templates.
func FuzzDecodeVerdict(f *testing.F) {
	for _, s := range []string{"", `{}`, `{"limiter":{"unit":"DRAM","percent":93.5,"evidence":"e"}}`,
		`{"suppressed":[{"rule":"r","severity":1,"gain":0.5,"reason":"x"}],"notes":1}`, `{"notes_text":{"skipped":["a"],"missing":[{"Rule":"r"}]}}`,
		`{"limiter":{"unit":"nope"}}`, `{"notes":99}`, `[`} {
		f.Add(s)
	}
	none := func(uint64) (string, bool, error) { return "", false, nil }
	f.Fuzz(func(t *testing.T, text string) {
		var s Verdict
		DecodeVerdict(text, none, &s)
	})
}
