package ingest

import "github.com/profan-dev/profan"

// ncuSource is not written yet.
type ncuSource struct{}

func (ncuSource) Name() string          { return "ncu-source" }
func (ncuSource) Tool() string          { return profan.ToolNCU }
func (ncuSource) Match(h []string) bool { return false }
func (ncuSource) Parse(t *Table) error  { return nil }
