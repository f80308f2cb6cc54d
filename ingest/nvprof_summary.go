package ingest

import "github.com/profan-dev/profan"

// nvprofSummary is not written yet.
type nvprofSummary struct{}

func (nvprofSummary) Name() string          { return "nvprof-summary" }
func (nvprofSummary) Tool() string          { return profan.ToolNvprof }
func (nvprofSummary) Match(h []string) bool { return false }
func (nvprofSummary) Parse(t *Table) error  { return nil }
