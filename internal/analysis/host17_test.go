package analysis_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/verdict"
)

// host17Read holds, on fixtures/host17's traces (held out: written before
// profan first read them), what the rows of hostCalibration do not: the
// timeline names each host read with the call and the frame that does it,
// the host's environment on rl as the user's Python by its frame, and no
// launch-bound time of theirs is named by a Python frame or by the
// environment's step. CUDA graphs can capture part of each step (rl's
// update; log's whole step with the logging reads after its replay), so
// the rows' first-lever checks stand for "never first where they cannot
// capture": no host17 step is one graphs cannot capture at all. A check
// with a miss note failed at the first read and is reported, not held.
func host17Read(t *testing.T, tls map[string]*analysis.Timeline) (misses []string) {
	t.Helper()
	for _, c := range []struct{ trace, cause, names, miss string }{
		// The action read back for the environment, in act.
		{"rl.default", verdict.IdleSync, ".cpu() cudaStreamSynchronize in aten::to at host17.py(184): act", ""},
		// The environment's numpy step, Nav.step, the user's Python.
		// First read, with main at a8f9c2f (06:40): missed (the gap
		// after act's read was all host sync); named since the time
		// after a sync returned is put on what the host did then.
		{"rl.default", verdict.IdlePython, "host17.py(112): step", ""},
		// The three logging reads at the end of the step.
		{"log.default", verdict.IdleSync, ".item() cudaStreamSynchronize in aten::item at host17.py(299): step", ""},
	} {
		misses = append(misses, idleNamed(t, tls, c.trace, c.cause, c.names, c.miss)...)
	}
	for _, name := range []string{"rl.default", "log.default", "log.noread"} {
		if tls[name] == nil {
			continue
		}
		for _, idle := range tls[name].Idle {
			if idle.Cause != verdict.IdleLaunch {
				continue
			}
			for _, call := range idle.Calls {
				if strings.Contains(call.Name, ".py(") || call.Frame == "host17.py(112): step" {
					t.Errorf("%s: launch-bound time named by the user's Python: %s", name, idleCallName(call))
				}
			}
		}
	}
	return misses
}

// idleNamed holds that the trace's idle time of cause names want among
// its calls; a check with a miss note is reported (returned), not held,
// and fails once it names want.
func idleNamed(t *testing.T, tls map[string]*analysis.Timeline, trace, cause, want, miss string) (misses []string) {
	t.Helper()
	if tls[trace] == nil {
		t.Errorf("%s: not read", trace)
		return nil
	}
	var named []string
	for _, idle := range tls[trace].Idle {
		if idle.Cause != cause {
			continue
		}
		for _, call := range idle.Calls {
			named = append(named, idleCallName(call))
		}
	}
	switch found := slicesContains(named, want); {
	case miss != "" && found:
		t.Errorf("%s: the %s time now names %s, a known miss: drop its miss note", trace, cause, want)
	case miss != "":
		misses = append(misses, fmt.Sprintf("- %s: the %s time does not name %s: %s.", trace, verdict.IdleLabel(cause), want, miss))
	case !found:
		t.Errorf("%s: the %s time does not name %s: %q", trace, cause, want, named)
	}
	return misses
}

// idleCallName is an idle call as the cause split's table names it.
func idleCallName(c verdict.IdleCall) string {
	s := c.Name
	switch {
	case strings.Contains(c.Method, "."):
		s = c.Method + "() " + s
	case c.Method != "":
		s = "." + c.Method + "() " + s
	}
	if c.Op != "" {
		s += " in " + c.Op
	}
	if c.Frame != "" {
		s += " at " + c.Frame
	}
	return s
}

// slicesContains reports whether one of names contains want.
func slicesContains(names []string, want string) bool {
	for _, n := range names {
		if strings.Contains(n, want) {
			return true
		}
	}
	return false
}
