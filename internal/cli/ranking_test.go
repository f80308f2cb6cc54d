package cli

import (
	"encoding/json"
	"fmt"
	"html"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/metrics"
)

// rankRow is a row of a ranking table as a surface prints it: the rank,
// the share of the kernel time and the top finding's cell (its headroom
// in brief where no priced finding tops the kernel).
type rankRow struct{ rank, share, top string }

func (r rankRow) String() string { return r.rank + " " + r.share + " " + r.top }

// TestRankingEverySurface: the kernels' ranking, each row's share and its
// top finding, with the headroom no rule explains where no finding with a
// gain tops the kernel, is the same in text, Markdown, HTML, report and
// report --db, and its order and shares are the JSON's groups' (one
// verdict; TestOneVerdictEverySurface compares the recommendations).
func TestRankingEverySurface(t *testing.T) {
	t.Parallel()
	for _, files := range [][]string{
		// An ncu capture of 22 kernels with its raw and source pages:
		// headroom briefs on the rows no priced finding tops.
		{"../../fixtures/sol/sol.details.csv.gz", "../../fixtures/sol/sol.raw.csv.gz", "../../fixtures/sol/sol.source.cuda-sass.csv.gz"},
		// A PyTorch trace of 16 kernels, rows with no finding among them.
		{"../../fixtures/host38/sat.default.json.gz"},
	} {
		t.Run(filepath.Base(files[0]), func(t *testing.T) {
			t.Parallel()
			out := map[string]string{}
			for _, format := range []string{"text", "markdown", "json"} {
				o, errOut, code := run(t, append([]string{"analyze", "-f", format}, files...)...)
				if code != ExitOK {
					t.Fatalf("analyze -f %s: exit %d: %s", format, code, errOut)
				}
				out[format] = o
			}
			o, errOut, code := run(t, append([]string{"report", "--html", "-"}, files...)...)
			if code != ExitOK {
				t.Fatalf("report: exit %d: %s", code, errOut)
			}
			out["report"] = o
			if out["html"], errOut, code = run(t, append([]string{"analyze", "-f", "html"}, files...)...); code != ExitOK {
				t.Fatalf("analyze -f html: exit %d: %s", code, errOut)
			}
			db := filepath.Join(t.TempDir(), "runs.db")
			if _, errOut, code := run(t, append([]string{"ingest", "--db", db}, files...)...); code != ExitOK {
				t.Fatalf("ingest: exit %d: %s", code, errOut)
			}
			if out["report --db"], errOut, code = run(t, "report", "--db", db, "--html", "-"); code != ExitOK {
				t.Fatalf("report --db: exit %d: %s", code, errOut)
			}
			want := textRanking(out["text"])
			if len(want) < 10 {
				t.Fatalf("text ranks %d kernels: the test compares little\n%s", len(want), out["text"])
			}
			untopped := 0
			for _, r := range want {
				if strings.Contains(r.top, "headroom") || r.top == "" {
					untopped++
				}
			}
			if untopped == 0 {
				t.Errorf("no row without a priced top finding: the headroom briefs are not compared")
			}
			got := map[string][]rankRow{"markdown": markdownRanking(out["markdown"])}
			for _, name := range []string{"html", "report", "report --db"} {
				got[name] = htmlRanking(out[name])
			}
			for name, rows := range got {
				if fmt.Sprint(rows) != fmt.Sprint(want) {
					t.Errorf("%s ranks\n%s\ntext ranks\n%s", name, rowLines(rows), rowLines(want))
				}
			}
			if j := jsonRanking(t, out["json"]); fmt.Sprint(j) != fmt.Sprint(shareOnly(want)) {
				t.Errorf("JSON ranks\n%s\ntext ranks\n%s", rowLines(j), rowLines(shareOnly(want)))
			}
		})
	}
}

func rowLines(rows []rankRow) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.String() + "\n")
	}
	return b.String()
}

// shareOnly is rows without their top findings' cells, as JSON's groups
// are compared.
func shareOnly(rows []rankRow) []rankRow {
	out := make([]rankRow, len(rows))
	for i, r := range rows {
		out[i] = rankRow{rank: r.rank, share: r.share}
	}
	return out
}

var (
	textRankRow = regexp.MustCompile(`^(\d+)\s+(<?\d+\.\d+%)\s+\S*\s+\d+\s+\S+ \S+\s+\S+ \S+\s+(.*)$`)
	cellGap     = regexp.MustCompile(`\s{2,}`)
	mdRankRow   = regexp.MustCompile(`(?m)^\| (\d+) \| (<?\d+\.\d+%) \| \d+ \| [^|]+ \| [^|]+ \| (?:[^|\\]|\\.)+ \| (.*) \|$`)
	htmlRankRow = regexp.MustCompile(`(?s)<tr><td class="n">(\d+)</td><td class="share">.*?</span></span> ([^<]+)</td>(?:<td[^>]*>.*?</td>){4}<td>(.*?)</td>`)
	tags        = regexp.MustCompile(`<[^>]+>`)
)

// topCell is a top finding's cell in words: the separator a format puts
// between a bound and its headroom, and its mark-up, left out.
func topCell(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "·", " ")), " ")
}

func textRanking(out string) []rankRow {
	var rows []rankRow
	i := strings.Index(out, "\nRANK ")
	if i < 0 {
		return nil
	}
	for _, l := range strings.Split(out[i+1:], "\n")[1:] {
		m := textRankRow.FindStringSubmatch(l)
		if m == nil {
			break
		}
		cells := cellGap.Split(strings.TrimSpace(m[3]), 2) // the name, then the top finding
		top := ""
		if len(cells) == 2 {
			top = cells[1]
		}
		rows = append(rows, rankRow{m[1], m[2], topCell(top)})
	}
	return rows
}

func markdownRanking(out string) []rankRow {
	var rows []rankRow
	for _, m := range mdRankRow.FindAllStringSubmatch(out, -1) {
		top := html.UnescapeString(strings.NewReplacer("`", "", "\\", "").Replace(m[3]))
		rows = append(rows, rankRow{m[1], html.UnescapeString(m[2]), topCell(top)})
	}
	return rows
}

func htmlRanking(out string) []rankRow {
	i := strings.Index(out, `<table class="summary groups">`)
	if i < 0 {
		return nil
	}
	j := strings.Index(out[i:], "</table>")
	var rows []rankRow
	for _, m := range htmlRankRow.FindAllStringSubmatch(out[i:i+j], -1) {
		rows = append(rows, rankRow{m[1], html.UnescapeString(m[2]), topCell(html.UnescapeString(tags.ReplaceAllString(m[3], " ")))})
	}
	return rows
}

// jsonRanking is the JSON's groups in order with their shares, written as
// the other formats write them.
func jsonRanking(t *testing.T, out string) []rankRow {
	t.Helper()
	var doc struct {
		Groups []struct {
			Share float64 `json:"time_share"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	var rows []rankRow
	for i, g := range doc.Groups {
		rows = append(rows, rankRow{rank: fmt.Sprint(i + 1), share: metrics.ShareText(g.Share)})
	}
	return rows
}
