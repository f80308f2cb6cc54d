package ingest

import "github.com/profan-dev/profan"

// nsysGPUTrace is not written yet.
type nsysGPUTrace struct{}

func (nsysGPUTrace) Name() string          { return "nsys-gputrace" }
func (nsysGPUTrace) Tool() string          { return profan.ToolNsys }
func (nsysGPUTrace) Match(h []string) bool { return false }
func (nsysGPUTrace) Parse(t *Table) error  { return nil }
