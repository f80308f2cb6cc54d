package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// The writer's statements run on a goroutine of their own: AddKernel
// encodes a kernel (its blob, its value and finding rows) and hands the
// rows over, and the next kernel is analysed and encoded while SQLite
// stores this one. On 100 MB of ncu details the statements are a third of
// ingest's CPU time; without the overlap they added to it.
//
// Dictionary rows (kernel_names, metric_names, raw_metric_keys,
// text_templates) are still looked up and added by AddKernel itself, before
// the rows that refer to them are handed over, and only once the pipe is
// idle (pipe.sync): the transaction's connection never has statements of
// both goroutines in flight (a PostgreSQL connection could not). A name is
// new only at its first launches, so the waits are few.

// pipeDepth is the number of kernels encoded but not yet stored: enough to
// ride out a slow statement, few enough that their buffers stay small.
const pipeDepth = 16

// maxKeptBuffer is the largest buffer an op keeps for the next one.
const maxKeptBuffer = 64 << 10

// rowOp is what one kernel, or one chunk of a launch series, adds.
type rowOp struct {
	ordinal int // the kernel's ordinal, for errors

	// A kernels row, with its values and findings.
	launchID string
	nameID   int64
	device   string
	cc       string
	grid     string
	block    string
	inv      int
	dur      any
	blob     []byte
	verdict  string // kernels.verdict
	values   []valueRow
	findings []findingRow
	starts   *series // the series this launch starts, or nil

	// Or a launch_series chunk.
	chunkOf *series
	chunk   int
	n       int
	data    []byte
}

type valueRow struct {
	metricID int64
	value    float64
}

type findingRow struct {
	rule      string
	severity  int
	kernel    string
	message   string
	advice    string
	gain      any
	evidence  string
	locations string
}

// pipe is the statements' goroutine and the ops it owns.
//
// Its statements run with the writer's context without its cancellation
// (quiet): go-sqlite3 runs each statement of a context that can be
// cancelled on a goroutine of its own, to interrupt it, and waits for it
// (two goroutine switches for every kernel and finding row: 3 % of the
// CPU of a 100 MB ncu ingest). The pipe looks at the context before each
// op instead: a cancelled ingest stops within one kernel's statements.
type pipe struct {
	quiet    context.Context
	ops      chan *rowOp
	free     chan *rowOp
	wg       sync.WaitGroup // the goroutine
	inflight sync.WaitGroup // ops handed over and not yet run

	mu     sync.Mutex
	err    error       // the first statement that failed; the ops after it are dropped
	hasErr atomic.Bool // err is set: failed takes no lock while it is not
}

func (w *RunWriter) startPipe() {
	p := &pipe{quiet: context.WithoutCancel(w.ctx), ops: make(chan *rowOp, pipeDepth), free: make(chan *rowOp, pipeDepth)}
	for range pipeDepth {
		p.free <- &rowOp{}
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for op := range p.ops {
			if p.failed() == nil {
				err := w.ctx.Err()
				if err == nil {
					err = w.store(op)
				}
				if err != nil {
					p.mu.Lock()
					if p.err == nil {
						p.err = fmt.Errorf("add kernel %d: %w", op.ordinal, w.db.d.formatError(err))
						p.hasErr.Store(true)
					}
					p.mu.Unlock()
				}
			}
			// A chunk or a source page's blob may be large: let it go
			// rather than hold pipeDepth of them.
			if cap(op.data) > maxKeptBuffer {
				op.data = nil
			}
			if cap(op.blob) > maxKeptBuffer {
				op.blob = nil
			}
			p.free <- op
			p.inflight.Done()
		}
	}()
	w.pipe = p
}

func (p *pipe) failed() error {
	if !p.hasErr.Load() {
		return nil // every kernel asks: no lock while nothing failed
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// take returns an op to fill, waiting while pipeDepth are in flight.
func (p *pipe) take() *rowOp {
	op := <-p.free
	op.starts, op.chunkOf = nil, nil
	op.values, op.findings = op.values[:0], op.findings[:0]
	return op
}

// send hands op over.
func (p *pipe) send(op *rowOp) {
	p.inflight.Add(1)
	p.ops <- op
}

// sync waits until every op handed over has run.
func (p *pipe) sync() {
	if p != nil {
		p.inflight.Wait()
	}
}

// drain stops the goroutine once it has run every op handed over, and
// returns the first error.
func (p *pipe) drain() error {
	if p == nil {
		return nil
	}
	close(p.ops)
	p.wg.Wait()
	return p.err
}

// store runs the statements of op, on the pipe's goroutine.
func (w *RunWriter) store(op *rowOp) error {
	if op.chunkOf != nil {
		return w.pipeExec(w.insSeries, op.chunkOf.kernelID, op.chunk, op.n, op.data)
	}
	var kid int64
	if w.db.d.lastInsertID {
		r, err := w.insKernel.ExecContext(w.pipe.quiet, w.id, op.ordinal, op.launchID, op.nameID, op.device, op.cc,
			op.grid, op.block, op.inv, op.dur, op.blob, op.verdict)
		if err != nil {
			return err
		}
		if kid, err = r.LastInsertId(); err != nil {
			return err
		}
	} else if err := w.insKernel.QueryRowContext(w.pipe.quiet, w.id, op.ordinal, op.launchID, op.nameID, op.device, op.cc,
		op.grid, op.block, op.inv, op.dur, op.blob, op.verdict).Scan(&kid); err != nil {
		return err
	}
	if op.starts != nil {
		op.starts.kernelID = kid
	}
	for _, v := range op.values {
		pv := pendingValue{metricID: v.metricID, kernelID: kid, value: v.value}
		if w.db.d.valuesByName {
			pv.nameID = op.nameID
		}
		w.pendingValues = append(w.pendingValues, pv)
		if len(w.pendingValues) == valueBatch {
			if err := w.flushValues(w.insValues); err != nil {
				return err
			}
		}
	}
	for _, f := range op.findings {
		if err := w.pipeExec(w.insFinding, kid, f.rule, f.severity, f.kernel, f.message, f.advice,
			f.gain, f.evidence, f.locations); err != nil {
			return err
		}
	}
	return nil
}

// pipeExec runs the INSERT st with args on the pipe. Where the dialect
// says so (queryInsert), through Query: go-sqlite3 binds a query's
// arguments and takes its first step, which runs an INSERT whole, in one
// cgo call, where its Exec makes a call per argument (3,000 for a batch
// of kernel values).
func (w *RunWriter) pipeExec(st *sql.Stmt, args ...any) error {
	if !w.db.d.queryInsert {
		_, err := st.ExecContext(w.pipe.quiet, args...)
		return err
	}
	rows, err := st.QueryContext(w.pipe.quiet, args...)
	if err != nil {
		return err
	}
	return rows.Close()
}

// pendingValue is a kernel_values row waiting for its batch.
type pendingValue struct {
	metricID, nameID, kernelID int64
	value                      float64
}

// flushValues inserts the pending rows with ins (the full-batch statement),
// or with a statement made for their number when ins is nil. The rows go
// in key order: one batch holds some 40 kernels' values of some 25
// metrics, and in key order each insert lands next to the previous one.
func (w *RunWriter) flushValues(ins *sql.Stmt) error {
	if len(w.pendingValues) == 0 {
		return nil
	}
	byName := w.db.d.valuesByName
	w.pendingValues, w.sortSpare = sortValues(w.pendingValues, w.sortSpare)
	w.values = w.values[:0]
	for _, v := range w.pendingValues {
		if byName {
			w.values = append(w.values, v.metricID, v.nameID, v.kernelID, v.value)
		} else {
			w.values = append(w.values, v.metricID, v.kernelID, v.value)
		}
	}
	var err error
	if ins != nil {
		err = w.pipeExec(ins, w.values...)
	} else {
		d := w.db.d
		_, err = w.tx.ExecContext(w.ctx, d.rebind(d.valuesInsert(len(w.pendingValues))), w.values...)
	}
	w.pendingValues = w.pendingValues[:0]
	return err
}

// sortValues sorts vs in key order (metric, name, kernel; nameID is 0
// unless it is part of the key), using spare, and returns the sorted rows
// and a spare slice. The rows come kernel by kernel, in the order their
// kernels were inserted, so a stable counting sort by metric (metric IDs
// are a run's few dictionary IDs) puts them in key order; where the
// metric IDs are too sparse for it, or a metric's rows are not in key
// order after it, they are sorted by comparison.
func sortValues(vs, spare []pendingValue) ([]pendingValue, []pendingValue) {
	byKey := func(a, b pendingValue) int {
		return cmp.Or(cmp.Compare(a.metricID, b.metricID), cmp.Compare(a.nameID, b.nameID), cmp.Compare(a.kernelID, b.kernelID))
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, v := range vs {
		lo, hi = min(lo, v.metricID), max(hi, v.metricID)
	}
	if len(vs) < 2 || hi-lo >= int64(4*len(vs)+1024) {
		slices.SortFunc(vs, byKey)
		return vs, spare
	}
	counts := make([]int32, hi-lo+2)
	for _, v := range vs {
		counts[v.metricID-lo+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	spare = slices.Grow(spare[:0], len(vs))[:len(vs)]
	for _, v := range vs {
		i := &counts[v.metricID-lo]
		spare[*i] = v
		*i++
	}
	for i := 1; i < len(spare); i++ {
		if byKey(spare[i-1], spare[i]) >= 0 {
			slices.SortFunc(spare, byKey)
			break
		}
	}
	return spare, vs
}
