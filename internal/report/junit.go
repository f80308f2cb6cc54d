package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// junitFormat renders gate results as JUnit XML.
var junitFormat = &Format{Name: "junit", Gate: gateJUnit}

// JUnitSuites is JUnit XML, as CI systems read it: one test suite per kind of check, one
// test case per check.
type JUnitSuites struct {
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

func gateJUnit(w io.Writer, r *GateResult, opt Options) error {
	checks, failed := r.Checks, r.Failed
	suites := map[string]*junitSuite{}
	var order []string
	for _, ch := range checks {
		s, ok := suites[ch.Kind]
		if !ok {
			s = &junitSuite{Name: "profan " + string(ch.Kind)}
			suites[ch.Kind] = s
			order = append(order, ch.Kind)
		}
		tc := junitCase{Class: ch.Kernel, Name: ch.Name + launchSuffix(ch), File: ch.Source}
		switch ch.Status {
		case checkFail:
			text := ch.Message
			for _, l := range ch.Locations {
				text += fmt.Sprintf("\n  at %s:%d %s", l.File, l.Line, l.SASS)
			}
			tc.Failure = &junitFailure{Message: ch.Message, Type: string(ch.Kind), Text: text}
			s.Fails++
		case checkSkip, checkSuppressed:
			tc.Skipped = &junitSkipped{Message: ch.Message}
			s.Skipped++
		default:
			tc.Out = ch.Message
		}
		if ch.Headroom != "" {
			tc.Out = strings.TrimPrefix(tc.Out+"\nheadroom: "+ch.Headroom, "\n")
		}
		s.Tests++
		s.Cases = append(s.Cases, tc)
	}
	out := JUnitSuites{Name: "profan gate", Tests: len(checks), Fails: failed}
	for _, k := range order {
		out.Suites = append(out.Suites, *suites[k])
	}
	w.Write([]byte(xml.Header))
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := w.Write([]byte("\n"))
	return err
}

func launchSuffix(ch GateCheck) string {
	if ch.Launch == "" {
		return ""
	}
	return " (launch " + ch.Launch + ")"
}
