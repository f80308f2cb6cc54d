package ingest

import "github.com/profan-dev/profan"

// nvprofMetrics is not written yet.
type nvprofMetrics struct{}

func (nvprofMetrics) Name() string          { return "nvprof-metrics" }
func (nvprofMetrics) Tool() string          { return profan.ToolNvprof }
func (nvprofMetrics) Match(h []string) bool { return false }
func (nvprofMetrics) Parse(t *Table) error  { return nil }
