package rules

// TraceReads makes e call f with every canonical metric a rule reads.
func (e *Engine) TraceReads(f func(rule, metric string)) { e.trace = f }

// TraceAppReads makes e call f with every evidence set and metric an
// application rule reads.
func (e *Engine) TraceAppReads(f func(rule, set string)) { e.appTrace = f }

// TritonKernel reports whether a kernel was compiled by Triton, and its def line.
var TritonKernel = tritonKernel
