package ingest

import "github.com/profan-dev/profan"

// nvprofWide is not written yet.
type nvprofWide struct{}

func (nvprofWide) Name() string          { return "nvprof-wide" }
func (nvprofWide) Tool() string          { return profan.ToolNvprof }
func (nvprofWide) Match(h []string) bool { return false }
func (nvprofWide) Parse(t *Table) error  { return nil }
