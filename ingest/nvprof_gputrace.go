package ingest

import "github.com/profan-dev/profan"

// nvprofTrace is not written yet.
type nvprofTrace struct{}

func (nvprofTrace) Name() string          { return "nvprof-gputrace" }
func (nvprofTrace) Tool() string          { return profan.ToolNvprof }
func (nvprofTrace) Match(h []string) bool { return false }
func (nvprofTrace) Parse(t *Table) error  { return nil }
