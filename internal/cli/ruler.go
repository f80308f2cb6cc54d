package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
	"github.com/profan-dev/profan/gpumodel"
	"github.com/profan-dev/profan/rules"
)

// settings are what every command analyses and gates with, parsed once
// from its flags and config file: one rules.Selector for --checks,
// --fail-on, the config's fail_on and [[suppress]], the thresholds, and
// the GPU named by --device.
type settings struct {
	Cfg *Config
	Sel *rules.Selector
	Opt analysis.Options
}

// loadSettings reads the config file (if any) and builds the settings.
func loadSettings(checks string, failOn []string, config, device string) (*settings, error) {
	cfg := &Config{Thresholds: rules.DefaultThresholds}
	if config != "" {
		var err error
		if cfg, err = loadConfig(config); err != nil {
			return nil, err
		}
	}
	return newSettings(cfg, checks, failOn, device)
}

// newSettings builds the settings from a loaded config.
func newSettings(cfg *Config, checks string, failOn []string, device string) (*settings, error) {
	sel, err := rules.NewSelector(checks, append(append([]string(nil), failOn...), cfg.FailOn...), cfg.Suppress)
	var unknown *rules.UnknownRuleError
	if errors.As(err, &unknown) {
		if s := closest(unknown.Item, ruleIDs()); s != "" {
			return nil, usageErrorf("%v; did you mean %q?", err, s)
		}
	}
	if err != nil {
		return nil, &UsageError{msg: err.Error()}
	}
	s := &settings{Cfg: cfg, Sel: sel}
	s.Opt = analysis.Options{Rules: &rules.Engine{Sel: sel, T: cfg.Thresholds}, Bound: cfg.Thresholds.Bound}
	if device != "" {
		spec, ok := gpumodel.Resolve(device)
		if !ok {
			return nil, fmt.Errorf("--device: %w", unknownError("GPU", device, gpuNames(), "the GPU table: gpumodel/specs.go"))
		}
		s.Opt.Device = spec
	}
	return s, nil
}

// checkDevice refuses a --device that contradicts what the export says of
// its GPU (another compute capability, SM count or memory size), unless
// --device-force: the peaks of the named GPU would be wrong for every
// kernel.
func checkDevice(spec *gpumodel.Spec, force bool, run *profan.Run, k *profan.Kernel) error {
	if spec == nil || force {
		return nil
	}
	if c := gpumodel.Contradictions(spec, analysis.Clues(k)); len(c) > 0 {
		return fmt.Errorf("%s: --device %q contradicts the export (%s); leave --device out, name the GPU the export shows, or add --device-force to analyse it as %s anyway",
			run.Source, spec.Name, strings.Join(c, "; "), spec.Name)
	}
	return nil
}
