package cli

import (
	"fmt"
	"os"

	"github.com/BurntSushi/toml"
	"github.com/profan-dev/profan/rules"
)

// Config is the profan configuration file (TOML):
//
//	[thresholds]
//	excess = 1.25            # sectors per request above ideal × this are reported
//
//	[[require]]               # gate conditions
//	metric = "gld_efficiency"
//	op = ">="
//	value = 80
//	kernel = "transpose.*"   # optional kernel regexp
//
//	[[suppress]]
//	rule = "small-grid"
//	kernel = "warmup.*"
//	reason = "launched once at start-up"
type Config struct {
	Thresholds rules.Thresholds `toml:"thresholds"`
	Require    []ConfigRequire  `toml:"require"`
	Suppress   []Suppression    `toml:"suppress"`
	FailOn     []string         `toml:"fail_on"`
}

// ConfigRequire is one threshold gate.
type ConfigRequire struct {
	Metric string  `toml:"metric"`
	Op     string  `toml:"op"`
	Value  float64 `toml:"value"`
	Kernel string  `toml:"kernel"`
}

// Suppression silences a rule, optionally for some kernels; the reason is
// mandatory so that every silenced finding is accounted for.
type Suppression struct {
	Rule   string `toml:"rule"`
	Kernel string `toml:"kernel"`
	Reason string `toml:"reason"`
}

func loadConfig(path string) (*Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg := &Config{Thresholds: rules.DefaultThresholds}
	md, err := toml.Decode(string(b), cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("%s: unknown key %s", path, und[0])
	}
	for i, s := range cfg.Suppress {
		if s.Reason == "" {
			return nil, fmt.Errorf("%s: suppression %d (rule %q) has no reason", path, i+1, s.Rule)
		}
		if _, ok := rules.ByID(s.Rule); !ok {
			return nil, fmt.Errorf("%s: suppression %d names unknown rule %q", path, i+1, s.Rule)
		}
	}
	return cfg, nil
}
