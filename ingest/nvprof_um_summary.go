package ingest

import "github.com/profan-dev/profan"

// nvprofUMSummary is not written yet.
type nvprofUMSummary struct{}

func (nvprofUMSummary) Name() string          { return "nvprof-um-summary" }
func (nvprofUMSummary) Tool() string          { return profan.ToolNvprof }
func (nvprofUMSummary) Match(h []string) bool { return false }
func (nvprofUMSummary) Parse(t *Table) error  { return nil }
