package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestGateJSONSchema validates gate --format json against
// docs/gate.schema.json, on gates that have every kind of check and both
// kinds of baseline, and checks that a regression carries its numbers.
func TestGateJSONSchema(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/gate.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatalf("docs/gate.schema.json: %v", err)
	}
	db := filepath.Join(t.TempDir(), "s.db")
	if _, errOut, code := run(t, "ingest", "--db", db, "--label", "branch=main", "../../fixtures/series6/series6_b4.details.csv"); code != ExitOK {
		t.Fatal(errOut)
	}
	kinds := map[string]bool{}
	for _, args := range [][]string{
		{"--db", db, "--baseline", "branch=main", "--require", "duration < 1ms", "--require", "gld_efficiency > 0", "--fail-on", "all", "../../fixtures/series6/series6_b5.details.csv"},
		{"--db", db, "--baseline", "1", fx + "transpose.import.details.csv"},
		{"--db", db + ".none", "--baseline", "branch=main", "--missing-baseline", "pass", fx + "saxpy.details.csv"},
		{"--require", "gld_efficiency > 1", "--skip-missing", fx + "saxpy.details.csv", fx + "saxpy.metrics.details.csv"},
	} {
		out, errOut, code := run(t, append([]string{"gate", "--format", "json"}, args...)...)
		if code == ExitError {
			t.Fatalf("gate %v: exit 2: %s", args, errOut)
		}
		var doc any
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("gate %v: %v", args, err)
		}
		for _, e := range validate(schema, doc, "$") {
			t.Errorf("gate %v: %s", args, e)
		}
		var g struct {
			Baseline *struct {
				Run     int64             `json:"run"`
				Labels  map[string]string `json:"labels"`
				Missing string            `json:"missing"`
			} `json:"baseline"`
			Checks []struct {
				Kind, Name, Test           string
				Old, New, Delta, Threshold *float64
			} `json:"checks"`
		}
		json.Unmarshal([]byte(out), &g)
		for _, c := range g.Checks {
			kinds[c.Kind] = true
			if c.Kind == "regression" && c.Name == "duration" && args[3] == "branch=main" {
				// series6 b4 → b5: 10.85 us → 23.84 us on the H100.
				if c.Old == nil || c.New == nil || c.Delta == nil || c.Threshold == nil || c.Test != "floor" ||
					math.Abs(*c.Old-10.848e-6) > 1e-9 || math.Abs(*c.New-23.84e-6) > 1e-9 || *c.Threshold != 0.05 ||
					math.Abs(*c.Delta-(23.84-10.848)/10.848) > 1e-6 {
					t.Errorf("duration regression: %+v", c)
				}
				if g.Baseline == nil || g.Baseline.Run != 1 || g.Baseline.Labels["branch"] != "main" {
					t.Errorf("baseline: %+v", g.Baseline)
				}
			}
		}
		if strings.HasSuffix(args[1], ".none") && (g.Baseline == nil || !strings.HasPrefix(g.Baseline.Missing, "no run database")) {
			t.Errorf("--missing-baseline pass: baseline %+v", g.Baseline)
		}
	}
	for _, k := range []string{"require", "finding", "regression", "new-finding", "missing"} {
		if !kinds[k] {
			t.Errorf("no %s check was validated", k)
		}
	}
}

// validate checks v against the part of JSON Schema that
// docs/gate.schema.json uses (type, enum, required, properties,
// additionalProperties, items, minimum, maximum) and returns what fails,
// each with its JSON path. It refuses any other keyword, so that the
// schema cannot grow one that goes unchecked.
func validate(s map[string]any, v any, path string) []string {
	var errs []string
	fail := func(f string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(f, args...)) }
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "$schema", "$id", "title", "description", "type", "enum", "required", "properties", "additionalProperties", "items", "minimum", "maximum":
		default:
			fail("schema keyword %q is not checked by this validator", k)
		}
	}
	if ty, ok := s["type"].(string); ok && jsonType(v, ty) != ty {
		fail("%s, want %s", jsonType(v, ty), ty)
		return errs
	}
	if enum, ok := s["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return reflect.DeepEqual(e, v) }) {
		fail("%v is not one of %v", v, enum)
	}
	if x, ok := v.(float64); ok {
		if m, ok := s["minimum"].(float64); ok && x < m {
			fail("%g < minimum %g", x, m)
		}
		if m, ok := s["maximum"].(float64); ok && x > m {
			fail("%g > maximum %g", x, m)
		}
	}
	if obj, ok := v.(map[string]any); ok {
		for _, r := range asSlice(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				fail("required %q is missing", r)
			}
		}
		props, _ := s["properties"].(map[string]any)
		names := make([]string, 0, len(obj))
		for k := range obj {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, validate(ps, obj[k], path+"."+k)...)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					fail("property %q is not in the schema", k)
				}
			case map[string]any:
				errs = append(errs, validate(ap, obj[k], path+"."+k)...)
			}
		}
	}
	if arr, ok := v.([]any); ok {
		if is, ok := s["items"].(map[string]any); ok {
			for i, x := range arr {
				errs = append(errs, validate(is, x, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return errs
}

func asSlice(v any) []any {
	s, _ := v.([]any)
	return s
}

// jsonType names v's JSON type; a whole number is an integer when want is.
func jsonType(v any, want string) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if want == "integer" && x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}
