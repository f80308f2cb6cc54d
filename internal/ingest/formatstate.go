package ingest

import "maps"

// formatStates is what importers keep over an export beyond one table:
// one value per type, each type declared in the file of the importer
// that keeps it (nvprofUnits in nvprof_metrics.go, nsysHost in
// nsys_api_trace.go), so that the reader's stream and File hold no
// format's fields. A File's states (nsys's launch calls read ahead, or
// shared by the two traces of a capture) are the start of its stream's.
type formatStates map[any]any

// stateOf returns fs's *T, made by mk on first use. The key is T's nil
// pointer: one entry per type.
func stateOf[T any](fs *formatStates, mk func() *T) *T {
	key := (*T)(nil)
	if v, ok := (*fs)[key]; ok {
		return v.(*T)
	}
	v := mk()
	if *fs == nil {
		*fs = formatStates{}
	}
	(*fs)[key] = v
	return v
}

// stateIf returns fs's *T, nil when none was made.
func stateIf[T any](fs formatStates) *T {
	v, _ := fs[(*T)(nil)].(*T)
	return v
}

// setState makes v fs's *T; nil forgets it.
func setState[T any](fs *formatStates, v *T) {
	key := (*T)(nil)
	if v == nil {
		delete(*fs, key)
		return
	}
	if *fs == nil {
		*fs = formatStates{}
	}
	(*fs)[key] = v
}

// clone is a copy of fs for a stream of its own.
func (fs formatStates) clone() formatStates { return maps.Clone(fs) }
