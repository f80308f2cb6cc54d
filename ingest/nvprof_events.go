package ingest

import "github.com/profan-dev/profan"

// nvprofEvents is not written yet.
type nvprofEvents struct{}

func (nvprofEvents) Name() string          { return "nvprof-events" }
func (nvprofEvents) Tool() string          { return profan.ToolNvprof }
func (nvprofEvents) Match(h []string) bool { return false }
func (nvprofEvents) Parse(t *Table) error  { return nil }
