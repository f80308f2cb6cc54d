package rules

// TraceReads makes e call f with every canonical metric a rule reads.
func (e *Engine) TraceReads(f func(rule, metric string)) { e.trace = f }
