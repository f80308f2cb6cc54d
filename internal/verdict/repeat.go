package verdict

// Unrepeated is what a CUDA graph of a step's regions between the syncs
// a lever keeps does not hold as it is: the regions whose launch sequence
// (the kernels in order, by name and grid; by name where the lever pads
// the step) no other replayed step launches, so a graph captured on one
// step replays other launches than the step makes there (a loop run a
// number of times the batch sets). The replay prices them eager.
type Unrepeated struct {
	Steps int // the steps compared
	// Regions is the regions that do not repeat, over the steps, of
	// Of, the regions that launch anything.
	Regions, Of int
	// Host is their host time a step, seconds, scaled to an
	// unprofiled host as the replay scales it.
	Host float64
	// Frame is the user's frame whose launches there (the Python
	// before each) change the most from step to step, Counts those
	// launches in each step's regions that do not repeat, Kernel the
	// one it launches most there and Op the aten op that launched it
	// ("" where unknown).
	Kernel, Op, Frame string
	Counts            []int
}

// repeatSteps is a Steps that tells which regions a graph holds.
type repeatSteps interface {
	// Unrepeated is, under lever l (a graph of the step's regions
	// between the syncs it keeps), the regions no graph holds as they
	// are.
	Unrepeated(l Lever) Unrepeated
}

// Unrepeated is the replayed steps' regions that a graph under lever l
// does not hold as they are (their launches repeat in no other step); the
// zero Unrepeated without a replay, or where every region repeats.
func (t *Timeline) Unrepeated(l Lever) Unrepeated {
	if t == nil || t.Steps == nil {
		return Unrepeated{}
	}
	if rs, ok := t.Steps.(repeatSteps); ok {
		return rs.Unrepeated(l)
	}
	return Unrepeated{}
}
