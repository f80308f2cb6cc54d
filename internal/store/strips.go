package store

import (
	"context"
	"fmt"
	"github.com/profan-dev/profan/internal/store/blob"
	"math"
)

// TimelineStrip is a strip of a stored timeline, as the analysis draws
// it: a device's (Stream -1: its time line, busy or idle by cause) or one
// of its streams' (busy), over the device's span.
type TimelineStrip struct {
	Device, Stream        int // the device's place among the timeline's, the stream's among the device's (-1: the device's own)
	Name                  string
	Start, Span           float64 // seconds
	Busy, BusyShare       float64
	Kernels, Copies, Sets int
	Segments              []Segment
}

// Segment is a stretch of a strip: busy, or idle with its cause (the
// analysis's names).
type Segment struct {
	Start, End float64
	State      string
}

// The segments of a strip, encoded (run_timeline_strips.segments), with
// the integers and floats of the kernel blob (blob.go):
//
//	segments = 0x01 u(n) str(state)*n u(m) (u(state) f(Start) f(End))*m
//
// the states named once, each segment naming its state by its place.
const stripsVersion = 1

// encodeSegments encodes a strip's segments.
func encodeSegments(segs []Segment) []byte {
	e := blob.Encoder{B: make([]byte, 0, 16+17*len(segs))}
	var states []string
	place := map[string]int{}
	for _, s := range segs {
		if _, ok := place[s.State]; !ok {
			place[s.State] = len(states)
			states = append(states, s.State)
		}
	}
	e.B = append(e.B, stripsVersion)
	e.U(uint64(len(states)))
	for _, s := range states {
		e.Str(s)
	}
	e.U(uint64(len(segs)))
	for _, s := range segs {
		e.U(uint64(place[s.State]))
		e.F(s.Start)
		e.F(s.End)
	}
	return e.B
}

// decodeSegments decodes a strip's segments.
func decodeSegments(b []byte) ([]Segment, error) {
	if len(b) == 0 || b[0] != stripsVersion {
		return nil, fmt.Errorf("corrupt timeline strip: version %v, want %d", b[:min(len(b), 1)], stripsVersion)
	}
	d := blob.Decoder{B: b[1:]}
	states := make([]string, d.Count(1))
	for i := range states {
		states[i] = d.Str()
	}
	segs := make([]Segment, d.Count(17))
	for i := range segs {
		st := d.U()
		segs[i] = Segment{Start: d.F(), End: d.F()}
		if st >= uint64(len(states)) {
			d.Fail()
			break
		}
		segs[i].State = states[st]
	}
	if d.Err == nil && len(d.B) > 0 {
		d.Fail()
	}
	if d.Err != nil {
		return nil, fmt.Errorf("corrupt timeline strip: %w", d.Err)
	}
	return segs, nil
}

// setStrips writes the strips of f.
func (w *RunWriter) setStrips(f TimelineFigures) error {
	if len(f.Strips) == 0 {
		return nil
	}
	q := w.db.d.rebind(`INSERT INTO run_timeline_strips (run_id, device, stream, name, start, span, busy, busy_share, kernels, copies, sets, segments)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	for _, s := range f.Strips {
		for _, v := range []float64{s.Start, s.Span, s.Busy, s.BusyShare} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				w.err = fmt.Errorf("run timeline: strip %s: a figure is %v", s.Name, v)
				return w.err
			}
		}
		if _, err := w.tx.ExecContext(w.ctx, q, w.id, s.Device, s.Stream, s.Name, s.Start, s.Span, s.Busy, s.BusyShare, s.Kernels, s.Copies, s.Sets, encodeSegments(s.Segments)); err != nil {
			w.err = fmt.Errorf("run timeline: strip %s: %w", s.Name, w.db.d.formatError(err))
			return w.err
		}
	}
	return nil
}

// strips reads the strips of run runID into f, each device's before its
// streams'.
func (db *DB) strips(ctx context.Context, runID int64, f *TimelineFigures) error {
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT device, stream, name, start, span, busy, busy_share, kernels, copies, sets, segments
FROM run_timeline_strips WHERE run_id = ? ORDER BY device, stream`), runID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var s TimelineStrip
		var segs []byte
		if err := rows.Scan(&s.Device, &s.Stream, &s.Name, &s.Start, &s.Span, &s.Busy, &s.BusyShare, &s.Kernels, &s.Copies, &s.Sets, &segs); err != nil {
			return err
		}
		if s.Segments, err = decodeSegments(segs); err != nil {
			return fmt.Errorf("run %d, strip %s: %w", runID, s.Name, err)
		}
		term(&s.Name)
		f.Strips = append(f.Strips, s)
	}
	return rows.Err()
}
