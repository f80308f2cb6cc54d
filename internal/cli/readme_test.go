package cli

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update-readme", false, "regenerate the README's generated tables")

// TestReadmeTables keeps the README's rule and metric tables generated from
// the registries (go test ./internal/cli -update-readme rewrites them).
func TestReadmeTables(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, sec := range []struct{ name, body string }{{"rules", RuleTable()}, {"metrics", MetricTable()}} {
		begin, end := "<!-- "+sec.name+":begin -->\n", "<!-- "+sec.name+":end -->"
		i, j := strings.Index(s, begin), strings.Index(s, end)
		if i < 0 || j < i {
			t.Fatalf("README.md lacks the %s markers", sec.name)
		}
		cur := s[i+len(begin) : j]
		if cur == sec.body {
			continue
		}
		if *updateReadme {
			s = s[:i+len(begin)] + sec.body + s[j:]
			continue
		}
		t.Errorf("README.md %s table is out of date: run go test ./internal/cli -update-readme", sec.name)
	}
	if *updateReadme {
		if err := os.WriteFile("../../README.md", []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
