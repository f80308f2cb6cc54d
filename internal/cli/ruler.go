package cli

import (
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/rules"
)

// newRuler builds the rule engine for --checks and --config.
func newRuler(checks, config string) (analysis.Ruler, error) {
	e, err := rules.NewEngine(checks)
	if err != nil {
		return nil, FlagErrorf("--checks: %v", err)
	}
	if config != "" {
		cfg, err := loadConfig(config)
		if err != nil {
			return nil, err
		}
		e.T = cfg.Thresholds
	}
	return e, nil
}
