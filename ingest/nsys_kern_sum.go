package ingest

import "github.com/profan-dev/profan"

// nsysKernSum is not written yet.
type nsysKernSum struct{}

func (nsysKernSum) Name() string          { return "nsys-cuda-gpu-kern-sum" }
func (nsysKernSum) Tool() string          { return profan.ToolNsys }
func (nsysKernSum) Match(h []string) bool { return false }
func (nsysKernSum) Parse(t *Table) error  { return nil }
