package store

import (
	"container/heap"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/internal/store/blob"
)

// StoredKernel is a kernel record read back.
type StoredKernel struct {
	Kernel    *profan.Kernel     // as written, raw metrics included
	Canonical map[string]float64 // the canonical metrics derived (never NaN)
	Findings  []profan.Finding

	verdict string // kernels.verdict (store/verdict.go)
}

// Kernels returns the kernel records of run runID in the order written, or
// an error wrapping ErrNotFound when there is no such run.
func (db *DB) Kernels(ctx context.Context, runID int64) ([]StoredKernel, error) {
	ks, err := db.kernels(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("reading kernels of run %d: %w", runID, err)
	}
	return ks, nil
}

func (db *DB) kernels(ctx context.Context, runID int64) ([]StoredKernel, error) {
	out, ordinals, index, err := db.records(ctx, runID)
	if err != nil {
		return nil, err
	}
	return db.expandSeries(ctx, runID, out, ordinals, index)
}

// EachRecord calls record with each kernel record of run runID as stored
// (a launch series as its first launch) and, for a series' first launch,
// its kernels.id (else 0), and launch with each later launch of each
// series: the kernels.id of its first launch, its kernel and its
// canonical duration (NaN when none); all in the order the export held
// them (their ordinals), as a reader of the export meets them, so that
// what is made of the first launches read (a group's sample of launches,
// its sums) is the export's. A nil launch gets StoredKernel records of the
// later launches from record, with kernels.id 0. A series is read a chunk
// at a time, so that memory grows with the series open at once, not with
// the launches they hold.
func (db *DB) EachRecord(ctx context.Context, runID int64, record func(int64, StoredKernel) error, launch func(int64, *profan.Kernel, float64) error) error {
	out, ordinals, index, err := db.records(ctx, runID)
	if err != nil {
		return fmt.Errorf("reading kernels of run %d: %w", runID, err)
	}
	chunks, err := queryMap[int64, int](ctx, db.db, db.d.rebind(`SELECT s.kernel_id, count(*) FROM launch_series s JOIN kernels k ON k.id = s.kernel_id WHERE k.run_id = ? GROUP BY s.kernel_id`), runID)
	if err != nil {
		return fmt.Errorf("reading kernels of run %d: %w", runID, err)
	}
	var open seriesHeap
	for id, n := range chunks {
		i, ok := index[id]
		if !ok {
			return fmt.Errorf("reading kernels of run %d: launch series of unknown kernel %d", runID, id)
		}
		open = append(open, &seriesCursor{kernelID: id, chunks: n, ordinal: ordinals[i], firstID: out[i].Kernel.ID})
	}
	live := open[:0]
	for _, c := range open {
		if err := db.nextChunk(ctx, c); err != nil {
			return fmt.Errorf("reading kernels of run %d: %w", runID, err)
		}
		if len(c.buf) > 0 {
			live = append(live, c)
		}
	}
	open = live
	heap.Init(&open)
	// Records that start no series are given kernels.id 0: nothing need
	// be kept of them for later launches.
	ids := make([]int64, len(out))
	if launch != nil {
		for id, i := range index {
			if chunks[id] > 0 {
				ids[i] = id
			}
		}
	}
	emit := func(c *seriesCursor) error {
		l := c.buf[c.pos]
		if launch == nil {
			return record(0, out[index[c.kernelID]].launch(l))
		}
		k := out[index[c.kernelID]].Kernel.Clone()
		k.ID, k.Start, k.Duration = l.id, l.start, l.duration
		return launch(c.kernelID, k, l.canonDur)
	}
	// Records are in ordinal order; the series' launches are merged in.
	for i := 0; i < len(out) || len(open) > 0; {
		if len(open) > 0 && (i == len(out) || open[0].buf[open[0].pos].ordinal < ordinals[i]) {
			c := open[0]
			if err := emit(c); err != nil {
				return err
			}
			if c.pos++; c.pos == len(c.buf) {
				if err := db.nextChunk(ctx, c); err != nil {
					return fmt.Errorf("reading kernels of run %d: %w", runID, err)
				}
			}
			if len(c.buf) == 0 {
				heap.Pop(&open)
			} else {
				heap.Fix(&open, 0)
			}
			continue
		}
		if err := record(ids[i], out[i]); err != nil {
			return err
		}
		i++
	}
	return nil
}

// seriesCursor reads a launch series of a run a chunk at a time.
type seriesCursor struct {
	kernelID     int64
	chunks, next int    // chunks in all, and the next to read
	ordinal      int    // the series' first launch's
	firstID      string // and its ID
	buf          []seriesLaunch
	pos          int
}

// nextChunk reads c's next chunk into c.buf (empty after its last).
func (db *DB) nextChunk(ctx context.Context, c *seriesCursor) error {
	c.buf, c.pos = c.buf[:0], 0
	for c.next < c.chunks && len(c.buf) == 0 {
		var n int
		var data []byte
		err := db.db.QueryRowContext(ctx, db.d.rebind(`SELECT launches, data FROM launch_series WHERE kernel_id = ? AND chunk = ?`), c.kernelID, c.next).Scan(&n, &data)
		if err != nil {
			return err
		}
		c.next++
		if c.buf, err = decodeSeries(data, n, c.ordinal, c.firstID, c.buf); err != nil {
			return fmt.Errorf("kernel %s: %w", c.firstID, err)
		}
	}
	return nil
}

// seriesHeap orders the open series by their next launch's ordinal.
type seriesHeap []*seriesCursor

func (h seriesHeap) Len() int { return len(h) }
func (h seriesHeap) Less(i, j int) bool {
	return h[i].buf[h[i].pos].ordinal < h[j].buf[h[j].pos].ordinal
}
func (h seriesHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *seriesHeap) Push(x any)   { *h = append(*h, x.(*seriesCursor)) }
func (h *seriesHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// records reads the kernel records of run runID as stored (a launch
// series as its first launch), with their ordinals and their index by
// kernel ID.
func (db *DB) records(ctx context.Context, runID int64) ([]StoredKernel, []int, map[int64]int, error) {
	if _, err := db.Run(ctx, runID); err != nil {
		return nil, nil, nil, err
	}
	q := db.d.rebind
	rows, err := db.db.QueryContext(ctx, q(`SELECT k.id, k.ordinal, k.name_id, k.launch_id, n.name, n.demangled, k.device, k.cc, k.grid, k.block, k.invocations, k.duration, k.raw, k.verdict
FROM kernels k JOIN kernel_names n ON n.id = k.name_id WHERE k.run_id = ? ORDER BY k.ordinal`), runID)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	var out []StoredKernel
	var ordinals []int
	index := map[int64]int{}
	nameIDs := map[int64]bool{}
	for rows.Next() {
		k := &profan.Kernel{}
		var id, nameID int64
		var ordinal int
		var grid, block string
		var dur sql.NullFloat64
		var raw []byte
		var verdict string
		if err := rows.Scan(&id, &ordinal, &nameID, &k.ID, &k.Name, &k.Demangled, &k.Device, &k.CC, &grid, &block, &k.Invocations, &dur, &raw, &verdict); err != nil {
			return nil, nil, nil, err
		}
		term(&k.ID, &k.Name, &k.Demangled, &k.Device, &k.CC)
		k.Duration = floatOrNaN(dur)
		if k.Grid, err = parseDim(grid); err != nil {
			return nil, nil, nil, err
		}
		if k.Block, err = parseDim(block); err != nil {
			return nil, nil, nil, err
		}
		var keyErr error
		err := blob.DecodeKernel(raw, k, func(id uint64) (blob.Key, bool) {
			key, ok, err := db.metricKey(ctx, id)
			if err != nil && keyErr == nil {
				keyErr = err
			}
			return key, ok
		}, func(id uint64) (string, bool) {
			t, ok, err := db.textTemplate(ctx, id)
			if err != nil && keyErr == nil {
				keyErr = err
			}
			return t, ok
		})
		if keyErr != nil {
			return nil, nil, nil, keyErr
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("kernel %s: %w", k.ID, err)
		}
		index[id] = len(out)
		nameIDs[nameID] = true
		out = append(out, StoredKernel{Kernel: k, Canonical: map[string]float64{}, verdict: verdict})
		ordinals = append(ordinals, ordinal)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}

	if len(out) > 0 {
		// Values are keyed by metric first: read each metric's range of
		// this run's kernel IDs. (Within one write transaction the IDs are
		// consecutive; IDs of other runs in the range are skipped.)
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for id := range index {
			lo, hi = min(lo, id), max(hi, id)
		}
		query, args := db.d.kernelValuesSQL(nameIDs, lo, hi)
		rows, err = db.db.QueryContext(ctx, q(query), args...)
		if err != nil {
			return nil, nil, nil, err
		}
		defer rows.Close()
		for rows.Next() {
			var id int64
			var name string
			var v float64
			if err := rows.Scan(&name, &id, &v); err != nil {
				return nil, nil, nil, err
			}
			if i, ok := index[id]; ok {
				out[i].Canonical[name] = v
			}
		}
		if err := rows.Err(); err != nil {
			return nil, nil, nil, err
		}
	}

	rows, err = db.db.QueryContext(ctx, q(`SELECT f.kernel_id, f.rule, f.severity, f.kernel, f.message, f.advice, f.gain, f.evidence, f.locations
FROM kernels k JOIN findings f ON f.kernel_id = k.id WHERE k.run_id = ? ORDER BY f.id`), runID)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var f profan.Finding
		var sev int
		var gain sql.NullFloat64
		var ev, loc string
		if err := rows.Scan(&id, &f.Rule, &sev, &f.Kernel, &f.Message, &f.Advice, &gain, &ev, &loc); err != nil {
			return nil, nil, nil, err
		}
		term(&f.Rule, &f.Kernel, &f.Message, &f.Advice)
		f.Severity = profan.Severity(sev)
		f.Gain = floatOrNaN(gain)
		if err := json.Unmarshal([]byte(ev), &f.Evidence); err != nil {
			return nil, nil, nil, fmt.Errorf("finding %s: evidence: %w", f.Rule, err)
		}
		if err := json.Unmarshal([]byte(loc), &f.Locations); err != nil {
			return nil, nil, nil, fmt.Errorf("finding %s: locations: %w", f.Rule, err)
		}
		if len(f.Evidence) == 0 {
			f.Evidence = nil
		}
		if len(f.Locations) == 0 {
			f.Locations = nil
		}
		sk := &out[index[id]]
		sk.Findings = append(sk.Findings, f)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, nil, err
	}
	return out, ordinals, index, nil
}

// expandSeries adds the later launches of every launch series of run runID
// to out (whose records have the given ordinals and kernel IDs index), in
// the order written.
func (db *DB) expandSeries(ctx context.Context, runID int64, out []StoredKernel, ordinals []int, index map[int64]int) ([]StoredKernel, error) {
	type ordered struct {
		ord int
		k   StoredKernel
	}
	var more []ordered
	err := db.eachSeries(ctx, `k.run_id = ?`, []any{runID}, func(id int64) (int, string, bool, error) {
		i, ok := index[id]
		if !ok {
			return 0, "", false, fmt.Errorf("launch series of unknown kernel %d", id)
		}
		return ordinals[i], out[i].Kernel.ID, true, nil
	}, func(id int64, l seriesLaunch) {
		more = append(more, ordered{l.ordinal, out[index[id]].launch(l)})
	})
	if err != nil {
		return nil, err
	}
	if len(more) == 0 {
		return out, nil
	}
	all := make([]ordered, 0, len(out)+len(more))
	for i, k := range out {
		all = append(all, ordered{ordinals[i], k})
	}
	all = append(all, more...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].ord < all[j].ord })
	out = out[:0]
	for _, o := range all {
		out = append(out, o.k)
	}
	return out, nil
}

// launch returns the record of a later launch of sk's series.
func (sk StoredKernel) launch(l seriesLaunch) StoredKernel {
	k := sk.Kernel.Clone()
	k.ID, k.Start, k.Duration = l.id, l.start, l.duration
	c := make(map[string]float64, len(sk.Canonical))
	for name, v := range sk.Canonical {
		c[name] = v
	}
	delete(c, "duration")
	if !math.IsNaN(l.canonDur) {
		c["duration"] = l.canonDur
	}
	fs := sk.Findings
	for i, f := range sk.Findings {
		if f.Kernel == sk.Kernel.ID { // findings that name the first launch name this one
			if &fs[0] == &sk.Findings[0] {
				fs = append([]profan.Finding(nil), sk.Findings...)
			}
			fs[i].Kernel = l.id
		}
	}
	return StoredKernel{Kernel: k, Canonical: c, Findings: fs, verdict: sk.verdict}
}

// kernelValuesSQL reads the canonical values of a range of kernel IDs,
// one primary-key range per metric.
const kernelValuesSQL = `SELECT m.name, v.kernel_id, v.value
FROM metric_names m CROSS JOIN kernel_values v
WHERE v.metric_id = m.id AND v.kernel_id BETWEEN ? AND ?`

// kernelValuesSQL returns the query of the canonical values of the kernels
// with IDs in [lo, hi] and names nameIDs: kernelValuesSQL, or where the key
// of kernel_values holds the name (valuesByName, PostgreSQL), one range per
// metric and name, the names passed as one array.
func (d *dialect) kernelValuesSQL(nameIDs map[int64]bool, lo, hi int64) (string, []any) {
	if !d.valuesByName {
		return kernelValuesSQL, []any{lo, hi}
	}
	ids := make([]int64, 0, len(nameIDs))
	for id := range nameIDs {
		ids = append(ids, id)
	}
	return `SELECT m.name, v.kernel_id, v.value
FROM metric_names m CROSS JOIN kernel_values v
WHERE v.metric_id = m.id AND v.name_id = ANY(?) AND v.kernel_id BETWEEN ? AND ?`, []any{ids, lo, hi}
}

func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }
