package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/pflag"

	"github.com/profan-dev/profan/internal/analysis"
	"github.com/profan-dev/profan/internal/gpumodel"
	"github.com/profan-dev/profan/internal/report"
	"github.com/profan-dev/profan/internal/rules"
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
func loadSettings(checks string, failOn []string, config string, dev deviceOpts) (*settings, error) {
	cfg := &Config{Thresholds: rules.DefaultThresholds}
	if config != "" {
		var err error
		if cfg, err = loadConfig(config); err != nil {
			return nil, err
		}
	}
	return newSettings(cfg, checks, failOn, dev)
}

// newSettings builds the settings from a loaded config.
func newSettings(cfg *Config, checks string, failOn []string, dev deviceOpts) (*settings, error) {
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
	s.Opt = analysis.Options{Rules: &rules.Engine{Sel: sel, Thresholds: cfg.Thresholds}, Bound: cfg.Thresholds.Bound}
	if dev.Device != "" {
		spec, ok := gpumodel.Resolve(dev.Device)
		if !ok {
			return nil, fmt.Errorf("--device: %w", unknownError("GPU", dev.Device, gpuNames(), "the GPU table: gpumodel/specs.go"))
		}
		s.Opt.Device, s.Opt.DeviceForce = spec, dev.DeviceForce
	}
	return s, nil
}

// Engine is the rules engine of the settings: the kernel, run and
// application rules --checks selected, with the config's thresholds and
// suppressions.
func (s *settings) Engine() *rules.Engine { return s.Opt.Rules.(*rules.Engine) }

// deviceOpts are --device and --device-force, the same on every command
// that reads exports.
type deviceOpts struct {
	Device      string
	DeviceForce bool
}

// addFlags registers --device and --device-force.
func (d *deviceOpts) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&d.Device, "device", "", "GPU to assume when the export does not name it (e.g. H100, T4, \"RTX 4090\", \"NVIDIA A100-SXM4-80GB\", sm_90)")
	fs.BoolVar(&d.DeviceForce, "device-force", false, "use --device even where the export's compute capability, SM count or memory contradicts it")
}

// ruleDocs describes the registry's rules for the formats that list them.
func ruleDocs() []report.RuleDoc {
	out := make([]report.RuleDoc, 0, len(rules.All))
	for _, r := range rules.All {
		out = append(out, report.RuleDoc{ID: r.ID, Title: r.Title, Text: r.Text, Severity: r.Severity})
	}
	return out
}
