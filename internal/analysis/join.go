package analysis

import (
	"cmp"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
)

// maxJoin bounds the launches a run keeps for a join.
const maxJoin = 1 << 20

// joinLaunch is 16 bytes: a trace of 600,000 launches keeps 10 MB.
type joinLaunch struct {
	start float64
	key   uint32 // index in the run's joinNames
	shape uint32 // a hash of the grid and block
}

// noteJoin keeps what a join needs of a launch.
func (v *RunVerdict) noteJoin(k *profan.Kernel) {
	if k.Invocations != 1 || len(v.joins) >= maxJoin {
		return
	}
	if v.joinKeys == nil {
		v.joinKeys = map[string]uint32{}
	}
	key, ok := v.joinKeys[k.Name]
	if !ok {
		if len(v.joinKeys) >= 1<<16 {
			return
		}
		key = uint32(len(v.joinNames))
		v.joinNames = append(v.joinNames, joinKey(k.DisplayName()))
		v.joinKeys[k.Name] = key
	}
	// FNV-1a over the six dimensions.
	h := uint32(2166136261)
	for _, d := range [6]int{k.Grid[0], k.Grid[1], k.Grid[2], k.Block[0], k.Block[1], k.Block[2]} {
		h = (h ^ uint32(d)) * 16777619
	}
	v.joins = append(v.joins, joinLaunch{start: k.Start, key: key, shape: h})
}

// joinKey is the base of a kernel's name: "void at::native::(anonymous
// namespace)::cunn_SoftMaxBackward<4, float>(float*, long)" and "void
// native::<unnamed>::cunn_SoftMaxBackward<4, float>(T2 *, long)" are both
// cunn_SoftMaxBackward. A name whose base is a generic wrapper (cutlass's
// Kernel2<Op>, device_kernel<Op>) keeps its first template argument's.
func joinKey(name string) string {
	name = strings.TrimPrefix(strings.TrimSpace(name), "void ")
	name = strings.NewReplacer("(anonymous namespace)::", "", "<unnamed>::", "").Replace(name)
	cut := len(name)
	if i := strings.IndexAny(name, "<("); i >= 0 {
		cut = i
	}
	base := name[:cut]
	if i := strings.LastIndex(base, "::"); i >= 0 {
		base = base[i+2:]
	}
	if cut < len(name) && name[cut] == '<' && (base == "Kernel" || base == "Kernel2" || base == "device_kernel") {
		arg := name[cut+1:]
		if j := strings.IndexAny(arg, ",<>("); j >= 0 {
			arg = arg[:j]
		}
		if i := strings.LastIndex(arg, "::"); i >= 0 {
			arg = arg[i+2:]
		}
		base += "<" + strings.TrimSpace(arg) + ">"
	}
	return base
}

// Joins pairs each trace among vs (a run with a timeline) with each
// kernel export (ncu) given with it.
func Joins(vs []*RunVerdict) []Join {
	var out []Join
	for _, e := range vs {
		if r := e.Run.Replay; r != nil {
			out = append(out, Join{Trace: r.Trace, Export: e.Run.Source, TraceLaunches: r.Launches, ExportLaunch: r.Invocations, Matched: r.Launches, Replay: r})
		}
	}
	for _, t := range vs {
		if t.Timeline == nil || len(t.joins) == 0 {
			continue
		}
		for _, e := range vs {
			if e == t || e.Run.Tool != profan.ToolNCU || len(e.joins) == 0 {
				continue
			}
			out = append(out, join(t, e))
		}
	}
	return out
}

func join(t, e *RunVerdict) Join {
	j := Join{Trace: t.Run.Source, Export: e.Run.Source, TraceLaunches: len(t.joins), ExportLaunch: len(e.joins)}
	// The trace in time order (Kineto does not write it so); the export in
	// its launch order.
	tr := slices.Clone(t.joins)
	slices.SortStableFunc(tr, func(x, y joinLaunch) int { return cmp.Compare(x.start, y.start) })
	byKey := map[string][]joinLaunch{}
	for _, l := range e.joins {
		k := e.joinNames[l.key]
		byKey[k] = append(byKey[k], l)
	}
	next := map[string]int{}
	for _, l := range tr {
		k := t.joinNames[l.key]
		i := next[k]
		if i >= len(byKey[k]) {
			continue
		}
		next[k] = i + 1
		j.Matched++
		if byKey[k][i].shape == l.shape {
			j.SameShape++
		}
	}
	return j
}
