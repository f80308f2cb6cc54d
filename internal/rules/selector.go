package rules

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/profan-dev/profan"
)

// List is a staticcheck-style rule list: "all", IDs, globs ("*-memcpy")
// and exclusions ("-small-grid"), applied left to right. An empty list
// selects nothing.
type List struct {
	items []listItem
}

type listItem struct {
	pattern string
	on      bool
}

// ParseList parses a comma-separated list; every item must match at least
// one rule. A list that starts with an exclusion starts from every rule:
// "-small-grid" is "all,-small-grid", not a list that selects nothing.
func ParseList(spec string) (List, error) {
	var l List
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		on := true
		if strings.HasPrefix(item, "-") {
			on, item = false, strings.TrimSpace(item[1:])
		}
		matched := false
		for _, r := range All {
			if matchRule(item, r.ID) {
				matched = true
				break
			}
		}
		if !matched {
			return List{}, &UnknownRuleError{Item: item}
		}
		if len(l.items) == 0 && !on {
			l.items = append(l.items, listItem{"all", true})
		}
		l.items = append(l.items, listItem{item, on})
	}
	return l, nil
}

// Match reports whether the list selects rule id: the last item that
// matches it decides.
func (l List) Match(id string) bool {
	on := false
	for _, it := range l.items {
		if matchRule(it.pattern, id) {
			on = it.on
		}
	}
	return on
}

// Names reports whether the list selects rule id by its ID itself, not
// through "all" or a glob: the rules a user named one by one.
func (l List) Names(id string) bool {
	named := false
	for _, it := range l.items {
		if matchRule(it.pattern, id) {
			named = it.on && it.pattern == id
		}
	}
	return named
}

func matchRule(pattern, id string) bool {
	if pattern == "all" || pattern == "*" || pattern == id {
		return true
	}
	ok, _ := path.Match(pattern, id)
	return ok
}

// Suppression silences a rule (an ID or glob), optionally for the kernels
// whose name matches Kernel; the reason is mandatory so that every
// silenced finding is accounted for.
type Suppression struct {
	Rule   string `toml:"rule"`
	Kernel string `toml:"kernel"`
	Reason string `toml:"reason"`
}

type suppression struct {
	Suppression
	re *regexp.Regexp
}

// Selector is the one rule matcher every command uses: which rules run
// (--checks), which findings fail a gate (--fail-on and the config's
// fail_on) and which are suppressed (the config's [[suppress]]).
type Selector struct {
	checks List
	failOn List
	sups   []suppression
}

// UnknownRuleError is a rule list item that matches no rule.
type UnknownRuleError struct{ Item string }

func (e *UnknownRuleError) Error() string {
	return fmt.Sprintf("no rule matches %q (see profan explain --list)", e.Item)
}

// NewSelector parses --checks (empty: all), the fail-on lists (each
// comma-separated; their items are applied in order, so "all,-small-grid"
// excludes small-grid) and the suppressions.
func NewSelector(checks string, failOn []string, sups []Suppression) (*Selector, error) {
	if strings.TrimSpace(checks) == "" {
		checks = "all"
	}
	s := &Selector{}
	var err error
	if s.checks, err = ParseList(checks); err != nil {
		return nil, fmt.Errorf("--checks: %w", err)
	}
	if s.failOn, err = ParseList(strings.Join(failOn, ",")); err != nil {
		return nil, fmt.Errorf("--fail-on: %w", err)
	}
	for i, sp := range sups {
		if sp.Reason == "" {
			return nil, fmt.Errorf("suppression %d (rule %q) has no reason", i+1, sp.Rule)
		}
		if _, err := ParseList(sp.Rule); err != nil || strings.Contains(sp.Rule, ",") || strings.HasPrefix(sp.Rule, "-") {
			return nil, fmt.Errorf("suppression %d names unknown rule %q", i+1, sp.Rule)
		}
		x := suppression{Suppression: sp}
		if sp.Kernel != "" {
			if x.re, err = regexp.Compile(sp.Kernel); err != nil {
				return nil, fmt.Errorf("suppression %d (rule %q): kernel: %v", i+1, sp.Rule, err)
			}
		}
		s.sups = append(s.sups, x)
	}
	return s, nil
}

// Runs reports whether rule id is to run.
func (s *Selector) Runs(id string) bool { return s == nil || s.checks.Match(id) }

// Fails reports whether a finding of rule id fails a gate.
func (s *Selector) Fails(id string) bool { return s != nil && s.failOn.Match(id) }

// FailsNamed reports whether a finding of rule id fails a gate because
// the fail-on lists name it by its ID (not through "all" or a glob): a
// rule the user asked for one by one, which a gate may not pass unchecked.
func (s *Selector) FailsNamed(id string) bool { return s != nil && s.failOn.Names(id) }

// Rules returns the rules that run, in registry order.
func (s *Selector) Rules() []*Rule {
	var out []*Rule
	for _, r := range All {
		if s.Runs(r.ID) {
			out = append(out, r)
		}
	}
	return out
}

// suppressedApp returns the reason when a recommendation of application
// rule id is suppressed: by a suppression without a kernel, or by one
// whose kernel pattern matches every kernel the recommendation acts on.
func (s *Selector) suppressedApp(id string, kernels []string) (string, bool) {
	return s.suppressedBy(id, func(re *regexp.Regexp) bool {
		all := len(kernels) > 0
		for _, k := range kernels {
			all = all && re.MatchString(k)
		}
		return all
	})
}

// Suppressed returns the reason when a finding of rule id on kernel k (nil
// for run-level findings: only suppressions without a kernel apply) is
// suppressed.
func (s *Selector) Suppressed(id string, k *profan.Kernel) (string, bool) {
	return s.suppressedBy(id, func(re *regexp.Regexp) bool {
		return k != nil && (re.MatchString(k.Name) || re.MatchString(k.DisplayName()))
	})
}

// suppressedBy returns the reason of the first suppression of rule id
// that has no kernel pattern or whose pattern kernel accepts.
func (s *Selector) suppressedBy(id string, kernel func(*regexp.Regexp) bool) (string, bool) {
	if s == nil {
		return "", false
	}
	for _, sp := range s.sups {
		if matchRule(sp.Rule, id) && (sp.re == nil || kernel(sp.re)) {
			return sp.Reason, true
		}
	}
	return "", false
}
