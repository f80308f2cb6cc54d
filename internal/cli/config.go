package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/profan-dev/profan/internal/gate"
	"github.com/profan-dev/profan/internal/rules"
	"github.com/profan-dev/profan/internal/safe"
	"github.com/profan-dev/profan/internal/units"
)

// Config is the profan configuration file (TOML):
//
//	[thresholds]
//	excess = 1.25            # sectors per request above ideal × this are reported
//
//	[[require]]               # gate conditions
//	metric = "gld_efficiency"
//	op = ">="
//	value = 80               # or a string with a unit: "50us", "80%", "2x"
//	kernel = "transpose.*"   # optional kernel regexp
//
//	[[suppress]]
//	rule = "small-grid"
//	kernel = "warmup.*"
//	reason = "launched once at start-up"
type Config struct {
	Thresholds rules.Thresholds    `toml:"thresholds"`
	Require    []ConfigRequire     `toml:"require"`
	Suppress   []rules.Suppression `toml:"suppress"`
	FailOn     []string            `toml:"fail_on"`
	// MinShare is gate's --min-share: 0.5 or "0.5%" (percent of the
	// capture); "" when absent.
	MinShare QuantityValue `toml:"min_share"`
	// Conditions are the [[require]] tables as gate conditions, made once
	// from the fields the user wrote.
	Conditions []gate.Condition `toml:"-"`
}

// ConfigRequire is one threshold gate.
type ConfigRequire struct {
	Metric string        `toml:"metric"`
	Op     gate.Op       `toml:"op"`
	Value  QuantityValue `toml:"value"`
	Kernel string        `toml:"kernel"`
}

// QuantityValue is a config value in the grammar of the command line
// (units.ParseQuantity): a TOML number (80, 0.5) or a string ("50us",
// "80%", "2x"). A number on a duration is refused: it would be seconds.
type QuantityValue struct {
	Text string // as a quantity; "" when the key is absent
}

// UnmarshalTOML reads a number or a string.
func (q *QuantityValue) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case int64:
		q.Text = strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("value %v is not a number", x)
		}
		q.Text = strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		if _, err := units.ParseQuantity(x); err != nil {
			return err
		}
		q.Text = x
	default:
		return fmt.Errorf("value must be a number or a string such as \"50us\", not %T", v)
	}
	return nil
}

// configKeys are the keys a config file may hold, as its struct tags
// spell them.
var configKeys = func() map[string]bool {
	keys := map[string]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Slice || t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
			if name == "" || name == "-" {
				continue
			}
			keys[name] = true
			if f.Type != reflect.TypeOf(QuantityValue{}) {
				walk(f.Type)
			}
		}
	}
	walk(reflect.TypeOf(Config{}))
	return keys
}()

// exactKeys refuses a key written in another case than profan's: the TOML
// decoder matches keys ignoring case, so Min_Share would work here and
// nowhere else that reads the file (a linter, another tool, a reviewer).
func exactKeys(keys []toml.Key) error {
	for _, k := range keys {
		for _, part := range k {
			if configKeys[part] {
				continue
			}
			for known := range configKeys {
				if strings.EqualFold(part, known) {
					return fmt.Errorf("key %s: keys are lower case; did you mean %q?", safe.Quote(k.String()), known)
				}
			}
		}
	}
	return nil
}

// maxConfig bounds a config file: a few kB in practice.
const maxConfig = 1 << 20

func loadConfig(path string) (*Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", safe.Term(path), err)
	}
	if len(b) > maxConfig {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a profan config file", safe.Term(path), maxConfig)
	}
	cfg := &Config{Thresholds: rules.DefaultThresholds}
	md, err := toml.Decode(string(b), cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s", path, und[0])
	}
	if err := exactKeys(md.Keys()); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := cfg.Thresholds.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	for i, r := range cfg.Require {
		switch {
		case strings.TrimSpace(r.Metric) == "":
			return nil, fmt.Errorf("%s: require %d has no metric", path, i+1)
		case r.Value.Text == "":
			return nil, fmt.Errorf("%s: require %d (%s %s): no value (write value = 80, or value = \"50us\" for a time)", path, i+1, r.Metric, r.Op)
		}
		c, err := gate.NewCondition(r.Metric, r.Op, r.Value.Text)
		if err != nil {
			return nil, fmt.Errorf("%s: require %d (metric = %q, op = %q, value = %q): %v", path, i+1, r.Metric, r.Op, r.Value.Text, err)
		}
		if r.Kernel != "" {
			if c.Kernel, err = regexp.Compile(r.Kernel); err != nil {
				return nil, fmt.Errorf("%s: require %d: kernel = %q: %v", path, i+1, r.Kernel, err)
			}
		}
		cfg.Conditions = append(cfg.Conditions, c)
	}
	for _, p := range cfg.FailOn {
		if _, err := rules.ParseList(p); err != nil {
			return nil, fmt.Errorf("%s: fail_on: %v", path, unknownError("rule", strings.TrimPrefix(p, "-"), ruleIDs(), "profan explain --list"))
		}
	}
	if cfg.MinShare.Text != "" {
		if _, err := parseShare(cfg.MinShare.Text); err != nil {
			return nil, fmt.Errorf("%s: min_share: %v", path, err)
		}
	}
	for i, s := range cfg.Suppress {
		if strings.TrimSpace(s.Reason) == "" {
			return nil, fmt.Errorf("%s: suppression %d (rule %q) has no reason", path, i+1, s.Rule)
		}
		if _, err := rules.ParseList(s.Rule); err != nil || strings.HasPrefix(s.Rule, "-") || strings.Contains(s.Rule, ",") {
			return nil, fmt.Errorf("%s: suppression %d: %v", path, i+1, unknownError("rule", s.Rule, ruleIDs(), "profan explain --list"))
		}
	}
	return cfg, nil
}
