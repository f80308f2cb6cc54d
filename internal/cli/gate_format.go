package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/gate"
	"github.com/profan-dev/profan/rules"
)

func writeGate(io *IOStreams, format string, checks []gate.Check, failed int) error {
	switch format {
	case "", "text":
		return gateText(io, checks, failed)
	case "json":
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		if checks == nil {
			checks = []gate.Check{}
		}
		return enc.Encode(struct {
			Passed bool         `json:"passed"`
			Failed int          `json:"failed"`
			Checks []gate.Check `json:"checks"`
		}{failed == 0, failed, checks})
	case "junit":
		return gateJUnit(io, checks, failed)
	case "sarif":
		return gateSARIF(io, checks)
	case "github":
		return gateGitHub(io, checks, failed)
	}
	return FlagErrorf("unknown format %q (want text, json, junit, sarif or github)", format)
}

func gateText(io *IOStreams, checks []gate.Check, failed int) error {
	c := func(code, s string) string {
		if !io.Color {
			return s
		}
		return "\x1b[" + code + "m" + s + "\x1b[0m"
	}
	passed, skipped := 0, 0
	for _, ch := range checks {
		switch ch.Status {
		case "fail":
			fmt.Fprintf(io.Out, "%s %s [%s %s] %s\n", c("31", "FAIL"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
			for _, l := range ch.Locations {
				fmt.Fprintf(io.Out, "       at %s:%d %s\n", l.File, l.Line, l.SASS)
			}
		case "suppressed":
			fmt.Fprintf(io.Out, "%s %s [%s %s] %s\n", c("2", "SUPP"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
		case "skip":
			skipped++
			fmt.Fprintf(io.Out, "%s %s [%s %s] %s\n", c("33", "SKIP"), ch.Kernel, ch.Kind, ch.Name, ch.Message)
		case "pass":
			passed++
		}
	}
	verdict := c("32", "gate passed")
	if failed > 0 {
		verdict = c("31", "gate failed")
	}
	tail := ""
	if skipped > 0 {
		tail = fmt.Sprintf(", %d skipped", skipped)
	}
	fmt.Fprintf(io.Out, "%s: %d checks, %d failed, %d passed%s\n", verdict, len(checks), failed, passed, tail)
	return nil
}

// JUnit XML, as CI systems read it: one test suite per kind of check, one
// test case per check.
type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Name    string       `xml:"name,attr"`
	Tests   int          `xml:"tests,attr"`
	Fails   int          `xml:"failures,attr"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name    string      `xml:"name,attr"`
	Tests   int         `xml:"tests,attr"`
	Fails   int         `xml:"failures,attr"`
	Skipped int         `xml:"skipped,attr"`
	Cases   []junitCase `xml:"testcase"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	File    string        `xml:"file,attr,omitempty"`
	Failure *junitFailure `xml:"failure,omitempty"`
	Skipped *junitSkipped `xml:"skipped,omitempty"`
	Out     string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func gateJUnit(io *IOStreams, checks []gate.Check, failed int) error {
	suites := map[string]*junitSuite{}
	var order []string
	for _, ch := range checks {
		s, ok := suites[ch.Kind]
		if !ok {
			s = &junitSuite{Name: "profan " + ch.Kind}
			suites[ch.Kind] = s
			order = append(order, ch.Kind)
		}
		tc := junitCase{Class: ch.Kernel, Name: ch.Name + launchSuffix(ch), File: ch.Source}
		switch ch.Status {
		case "fail":
			text := ch.Message
			for _, l := range ch.Locations {
				text += fmt.Sprintf("\n  at %s:%d %s", l.File, l.Line, l.SASS)
			}
			tc.Failure = &junitFailure{Message: ch.Message, Type: ch.Kind, Text: text}
			s.Fails++
		case "skip", "suppressed":
			tc.Skipped = &junitSkipped{Message: ch.Message}
			s.Skipped++
		default:
			tc.Out = ch.Message
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	out := junitSuites{Name: "profan gate", Tests: len(checks), Fails: failed}
	for _, k := range order {
		out.Suites = append(out.Suites, *suites[k])
	}
	io.Out.Write([]byte(xml.Header))
	enc := xml.NewEncoder(io.Out)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.Out.Write([]byte("\n"))
	return err
}

func launchSuffix(ch gate.Check) string {
	if ch.Launch == "" {
		return ""
	}
	return " (launch " + ch.Launch + ")"
}

// SARIF 2.1.0 (OASIS): one run of the tool "profan", its rules as
// reportingDescriptors, one result per finding and per failed condition.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string           `json:"id"`
	Name                 string           `json:"name,omitempty"`
	ShortDescription     sarifText        `json:"shortDescription"`
	FullDescription      *sarifText       `json:"fullDescription,omitempty"`
	DefaultConfiguration *sarifRuleConfig `json:"defaultConfiguration,omitempty"`
	Help                 *sarifText       `json:"help,omitempty"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID     string          `json:"ruleId"`
	RuleIndex  int             `json:"ruleIndex"`
	Level      string          `json:"level"`
	Message    sarifText       `json:"message"`
	Locations  []sarifLocation `json:"locations,omitempty"`
	Properties map[string]any  `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation *sarifPhysical `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

type sarifLogical struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// gateRuleIDs are the SARIF rules of gate conditions that are not findings.
var gateRules = []sarifRule{
	{ID: "gate/require", Name: "GateRequire", ShortDescription: sarifText{"A --require condition does not hold"}},
	{ID: "gate/regression", Name: "GateRegression", ShortDescription: sarifText{"A metric got worse than the baseline allows"}},
	{ID: "gate/missing-kernel", Name: "GateMissingKernel", ShortDescription: sarifText{"A kernel of the baseline is absent from the run"}},
	{ID: "gate/skipped", Name: "GateSkipped", ShortDescription: sarifText{"A condition could not be evaluated on a kernel and was skipped"}},
}

func gateSARIF(io *IOStreams, checks []gate.Check) error {
	var driverRules []sarifRule
	index := map[string]int{}
	for _, r := range rules.All {
		index[r.ID] = len(driverRules)
		driverRules = append(driverRules, sarifRule{
			ID: r.ID, Name: r.Title, ShortDescription: sarifText{r.Title}, FullDescription: &sarifText{strings.Join(strings.Fields(r.Text), " ")},
			DefaultConfiguration: &sarifRuleConfig{Level: sarifLevel(r.Severity)},
			Help:                 &sarifText{"profan explain " + r.ID},
		})
	}
	for _, r := range gateRules {
		index[r.ID] = len(driverRules)
		driverRules = append(driverRules, r)
	}
	results := []sarifResult{}
	for _, ch := range checks {
		var id, level string
		switch {
		case ch.Finding != nil:
			id = ch.Finding.Rule
			level = sarifLevel(ch.Finding.Severity)
			if ch.Failed() {
				level = "error"
			}
		case ch.Kind == "require" && ch.Failed():
			id, level = "gate/require", "error"
		case ch.Kind == "regression" && ch.Failed():
			id, level = "gate/regression", "error"
		case ch.Kind == "missing":
			id, level = "gate/missing-kernel", "error"
			if !ch.Failed() {
				level = "note"
			}
		case ch.Status == "skip":
			id, level = "gate/skipped", "note"
		default:
			continue
		}
		if ch.Status == "suppressed" {
			continue
		}
		res := sarifResult{RuleID: id, RuleIndex: index[id], Level: level, Message: sarifText{ch.Kernel + ": " + ch.Message},
			Properties: map[string]any{"kernel": ch.Kernel, "status": ch.Status}}
		if ch.Finding != nil && !isNaN(ch.Finding.Gain) {
			res.Properties["estimatedGain"] = ch.Finding.Gain
		}
		for _, l := range ch.Locations {
			if l.File == "" {
				continue
			}
			loc := sarifLocation{PhysicalLocation: &sarifPhysical{ArtifactLocation: sarifArtifactOf(l.File)}}
			if l.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: l.Line}
			}
			loc.LogicalLocations = []sarifLogical{{Name: ch.Kernel, Kind: "function"}}
			res.Locations = append(res.Locations, loc)
		}
		if len(res.Locations) == 0 {
			// No source line: the kernel is the place. The export the
			// kernel came from is no source file of the repository, so it
			// is a property, not a location code scanning would misplace.
			res.Locations = []sarifLocation{{LogicalLocations: []sarifLogical{{Name: ch.Kernel, Kind: "function"}}}}
		}
		if ch.Source != "" {
			res.Properties["export"] = ch.Source
		}
		results = append(results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: sarifDriver{Name: "profan", Version: Version, Rules: driverRules}}, Results: results}},
	}
	enc := json.NewEncoder(io.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

func isNaN(v float64) bool { return v != v }

func sarifLevel(s profan.Severity) string {
	switch s {
	case profan.Error:
		return "error"
	case profan.Warning:
		return "warning"
	}
	return "note"
}

// sarifArtifactOf locates a source file: a relative path (after
// --path-map) is relative to the checkout, %SRCROOT%, as code scanning
// resolves it; an absolute one is a file: URI.
func sarifArtifactOf(p string) sarifArtifact {
	a := sarifArtifact{URI: fileURI(p)}
	if !strings.HasPrefix(filepath.ToSlash(p), "/") {
		a.URIBaseID = "%SRCROOT%"
	}
	return a
}

// fileURI turns a path into a URI reference: relative paths stay relative
// (resolved against the checkout), absolute ones become file: URIs.
func fileURI(p string) string {
	p = filepath.ToSlash(p)
	if strings.HasPrefix(p, "/") {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}

// gateGitHub prints GitHub Actions workflow commands: an error annotation
// per failure, a warning per other warning-level finding.
func gateGitHub(io *IOStreams, checks []gate.Check, failed int) error {
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	escProp := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	lines := []string{}
	skipped := 0
	for _, ch := range checks {
		if ch.Status == "skip" {
			skipped++
		}
		level := ""
		switch {
		case ch.Failed():
			level = "error"
		case ch.Finding != nil && ch.Finding.Severity >= profan.Warning && ch.Status != "suppressed":
			level = "warning"
		case ch.Status == "skip":
			level = "warning" // a condition not evaluated must be seen
		default:
			continue
		}
		title := "profan " + ch.Name + ": " + ch.Kernel
		if ch.Status == "skip" {
			title = "profan skipped " + ch.Name + ": " + ch.Kernel
		}
		props := []string{"title=" + escProp.Replace(title)}
		file, line := ch.Source, 0
		for _, l := range ch.Locations {
			if l.File != "" {
				file, line = l.File, l.Line
				break
			}
		}
		if file != "" {
			props = append([]string{"file=" + escProp.Replace(file)}, props...)
			if line > 0 {
				props = append(props[:1], append([]string{fmt.Sprintf("line=%d", line)}, props[1:]...)...)
			}
		}
		lines = append(lines, fmt.Sprintf("::%s %s::%s", level, strings.Join(props, ","), esc.Replace(ch.Message)))
	}
	sort.SliceStable(lines, func(i, j int) bool {
		return strings.HasPrefix(lines[i], "::error") && !strings.HasPrefix(lines[j], "::error")
	})
	for _, l := range lines {
		fmt.Fprintln(io.Out, l)
	}
	also := ""
	if skipped > 0 {
		also = fmt.Sprintf(" (%d skipped)", skipped)
	}
	if failed > 0 {
		fmt.Fprintf(io.Out, "::error title=profan gate::%d gate condition(s) failed%s\n", failed, also)
	} else {
		fmt.Fprintf(io.Out, "::notice title=profan gate::all gate conditions hold%s\n", also)
	}
	return nil
}
