package report

import (
	"encoding/json"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/profan-dev/profan"
)

// sarifFormat renders gate results as SARIF 2.1.0 for code scanning.
var sarifFormat = &Format{Name: "sarif", Gate: gateSARIF}

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

func gateSARIF(w io.Writer, r *GateResult, opt Options) error {
	checks := r.Checks
	var driverRules []sarifRule
	index := map[string]int{}
	for _, r := range opt.Rules {
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
			if ch.failed() {
				level = "error"
			}
		case ch.Kind == kindRequire && ch.failed():
			id, level = "gate/require", "error"
		case ch.Kind == kindRegression && ch.failed():
			id, level = "gate/regression", "error"
		case ch.Kind == kindMissing:
			id, level = "gate/missing-kernel", "error"
			if !ch.failed() {
				level = "note"
			}
		case ch.Status == checkSkip:
			id, level = "gate/skipped", "note"
		default:
			continue
		}
		if ch.Status == checkSuppressed {
			continue
		}
		res := sarifResult{RuleID: id, RuleIndex: index[id], Level: level, Message: sarifText{ch.Kernel + ": " + ch.withHeadroom()},
			Properties: map[string]any{"kernel": ch.Kernel, "status": ch.Status}}
		if ch.Headroom != "" {
			res.Properties["headroom"] = ch.Headroom
		}
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
			kind := "function"
			if ch.Kind == kindRunFinding {
				kind = "module" // the capture as a whole, not a kernel
			}
			res.Locations = []sarifLocation{{LogicalLocations: []sarifLogical{{Name: ch.Kernel, Kind: kind}}}}
		}
		if ch.Source != "" {
			res.Properties["export"] = ch.Source
		}
		results = append(results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: sarifDriver{Name: "profan", Version: opt.Version, Rules: driverRules}}, Results: results}},
	}
	enc := json.NewEncoder(w)
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
