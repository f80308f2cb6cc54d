package cli

import (
	"fmt"
	"net/url"
	"sort"
)

// validateSARIF checks a SARIF log against the constraints of the OASIS
// SARIF 2.1.0 JSON schema (sarif-schema-2.1.0.json) for every object kind
// profan emits: required properties, the properties each object may have
// (the schema closes them with additionalProperties: false), enumerations,
// types and minimums.
func validateSARIF(doc any) []string {
	v := &sarifValidator{}
	v.object("sarifLog", doc, "$")
	return v.errs
}

type sarifValidator struct{ errs []string }

func (v *sarifValidator) errorf(format string, args ...any) {
	v.errs = append(v.errs, fmt.Sprintf(format, args...))
}

// sarifSchema lists, per definition, its properties and the required ones
// (from sarif-schema-2.1.0.json), and how to check each property.
var sarifSchema = map[string]struct {
	props    map[string]string // property → definition, or "string", "integer>=N", "uri", "enum:a|b", "array:def", "object"
	required []string
}{
	"sarifLog":                 {map[string]string{"$schema": "uri", "version": "enum:2.1.0", "runs": "array:run", "inlineExternalProperties": "array:object", "properties": "object"}, []string{"version", "runs"}},
	"run":                      {map[string]string{"tool": "tool", "results": "array:result", "invocations": "array:object", "artifacts": "array:object", "properties": "object", "language": "string", "columnKind": "enum:utf16CodeUnits|unicodeCodePoints"}, []string{"tool"}},
	"tool":                     {map[string]string{"driver": "toolComponent", "extensions": "array:toolComponent", "properties": "object"}, []string{"driver"}},
	"toolComponent":            {map[string]string{"name": "string", "version": "string", "semanticVersion": "string", "informationUri": "uri", "rules": "array:reportingDescriptor", "fullName": "string", "organization": "string", "properties": "object"}, []string{"name"}},
	"reportingDescriptor":      {map[string]string{"id": "string", "name": "string", "shortDescription": "multiformatMessageString", "fullDescription": "multiformatMessageString", "help": "multiformatMessageString", "helpUri": "uri", "defaultConfiguration": "reportingConfiguration", "properties": "object"}, []string{"id"}},
	"multiformatMessageString": {map[string]string{"text": "string", "markdown": "string", "properties": "object"}, []string{"text"}},
	"reportingConfiguration":   {map[string]string{"enabled": "bool", "level": "enum:none|note|warning|error", "rank": "number", "parameters": "object", "properties": "object"}, nil},
	"result": {map[string]string{"ruleId": "string", "ruleIndex": "integer>=-1", "rule": "object", "kind": "enum:notApplicable|pass|fail|review|open|informational", "level": "enum:none|note|warning|error",
		"message": "message", "locations": "array:location", "properties": "object", "partialFingerprints": "object", "fingerprints": "object"}, []string{"message"}},
	"message":          {map[string]string{"text": "string", "markdown": "string", "id": "string", "arguments": "array:string", "properties": "object"}, nil},
	"location":         {map[string]string{"id": "integer>=-1", "physicalLocation": "physicalLocation", "logicalLocations": "array:logicalLocation", "message": "message", "properties": "object"}, nil},
	"physicalLocation": {map[string]string{"address": "object", "artifactLocation": "artifactLocation", "region": "region", "contextRegion": "region", "properties": "object"}, nil},
	"artifactLocation": {map[string]string{"uri": "uri", "uriBaseId": "string", "index": "integer>=-1", "description": "message", "properties": "object"}, nil},
	"region":           {map[string]string{"startLine": "integer>=1", "startColumn": "integer>=1", "endLine": "integer>=1", "endColumn": "integer>=1", "charOffset": "integer>=-1", "charLength": "integer>=0", "properties": "object"}, nil},
	"logicalLocation":  {map[string]string{"name": "string", "index": "integer>=-1", "fullyQualifiedName": "string", "decoratedName": "string", "parentIndex": "integer>=-1", "kind": "string", "properties": "object"}, nil},
}

func (v *sarifValidator) object(def string, x any, at string) {
	m, ok := x.(map[string]any)
	if !ok {
		v.errorf("%s: %s must be an object", at, def)
		return
	}
	s := sarifSchema[def]
	for _, r := range s.required {
		if _, ok := m[r]; !ok {
			v.errorf("%s: %s lacks required property %q", at, def, r)
		}
	}
	if def == "message" {
		if _, t := m["text"]; !t {
			if _, id := m["id"]; !id {
				v.errorf("%s: message needs text or id", at)
			}
		}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		kind, ok := s.props[k]
		if !ok {
			v.errorf("%s: %s has no property %q (additionalProperties: false)", at, def, k)
			continue
		}
		v.value(kind, m[k], at+"."+k)
	}
}

func (v *sarifValidator) value(kind string, x any, at string) {
	switch {
	case kind == "string":
		if _, ok := x.(string); !ok {
			v.errorf("%s: want a string", at)
		}
	case kind == "bool":
		if _, ok := x.(bool); !ok {
			v.errorf("%s: want a boolean", at)
		}
	case kind == "number":
		if _, ok := x.(float64); !ok {
			v.errorf("%s: want a number", at)
		}
	case kind == "object":
		if _, ok := x.(map[string]any); !ok {
			v.errorf("%s: want an object", at)
		}
	case kind == "uri":
		s, ok := x.(string)
		if _, err := url.Parse(s); !ok || err != nil {
			v.errorf("%s: want a URI reference, got %v", at, x)
		}
	case len(kind) > 5 && kind[:5] == "enum:":
		s, _ := x.(string)
		ok := false
		for _, e := range splitBar(kind[5:]) {
			ok = ok || s == e
		}
		if !ok {
			v.errorf("%s: %v is not one of %s", at, x, kind[5:])
		}
	case len(kind) > 8 && kind[:8] == "integer>":
		var min int
		fmt.Sscanf(kind[9:], "%d", &min)
		f, ok := x.(float64)
		if !ok || f != float64(int64(f)) || int(f) < min {
			v.errorf("%s: want an integer >= %d, got %v", at, min, x)
		}
	case len(kind) > 6 && kind[:6] == "array:":
		xs, ok := x.([]any)
		if !ok {
			v.errorf("%s: want an array", at)
			return
		}
		for i, e := range xs {
			v.value(kind[6:], e, fmt.Sprintf("%s[%d]", at, i))
		}
	default:
		v.object(kind, x, at)
	}
}

func splitBar(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '|' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
