package cli

import (
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/gpumodel"
	"github.com/profan-dev/profan/rules"
)

// newRuler builds the rule engine for --checks and --config.
func newRuler(checks, config string) (*rules.Engine, error) {
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

// analysisOptions builds what every command analyses kernels with: the
// rules selected by --checks and --config, and the GPU named by --device.
func analysisOptions(checks, config, device string) (analysis.Options, *rules.Engine, error) {
	eng, err := newRuler(checks, config)
	if err != nil {
		return analysis.Options{}, nil, err
	}
	opt := analysis.Options{Rules: eng}
	if device != "" {
		spec, ok := gpumodel.Lookup(device)
		if !ok {
			return analysis.Options{}, nil, FlagErrorf("--device: unknown GPU %q", device)
		}
		opt.Device = spec
	}
	return opt, eng, nil
}
