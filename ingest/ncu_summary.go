package ingest

import "github.com/profan-dev/profan"

// ncuSummary is not written yet.
type ncuSummary struct{}

func (ncuSummary) Name() string          { return "ncu-summary" }
func (ncuSummary) Tool() string          { return profan.ToolNCU }
func (ncuSummary) Match(h []string) bool { return false }
func (ncuSummary) Parse(t *Table) error  { return nil }
