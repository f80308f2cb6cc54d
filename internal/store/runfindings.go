package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/profan-dev/profan"
)

// AddRunFinding writes one of profan's run-level findings (host
// transfers) with the run. After an error the writer accepts nothing more.
func (w *RunWriter) AddRunFinding(f profan.Finding) error {
	if w.err != nil {
		return w.err
	}
	if w.done {
		return errors.New("add run finding: run already committed or rolled back")
	}
	// The kernels' statements run on the pipe's goroutine: on PostgreSQL a
	// statement sent while one of theirs still reads its rows finds the
	// connection busy.
	w.pipe.sync()
	ev, err := json.Marshal(nonNil(f.Evidence))
	if err == nil {
		_, err = w.tx.ExecContext(w.ctx, w.db.d.rebind(`INSERT INTO run_findings (run_id, rule, severity, message, advice, gain, evidence)
VALUES (?, ?, ?, ?, ?, ?, ?)`), w.id, f.Rule, int(f.Severity), f.Message, f.Advice, nullFloat(f.Gain), string(ev))
	}
	if err != nil {
		w.err = fmt.Errorf("run finding %s: %w", f.Rule, w.db.d.formatError(err))
	}
	return w.err
}

// RunFindings returns the run-level findings stored with a run, in the
// order they were written.
func (db *DB) RunFindings(ctx context.Context, runID int64) ([]profan.Finding, error) {
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT rule, severity, message, advice, gain, evidence
FROM run_findings WHERE run_id = ? ORDER BY id`), runID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []profan.Finding
	for rows.Next() {
		var f profan.Finding
		var sev int
		var gain sql.NullFloat64
		var ev string
		if err := rows.Scan(&f.Rule, &sev, &f.Message, &f.Advice, &gain, &ev); err != nil {
			return nil, err
		}
		term(&f.Rule, &f.Message, &f.Advice)
		f.Severity = profan.Severity(sev)
		f.Gain = floatOrNaN(gain)
		if err := json.Unmarshal([]byte(ev), &f.Evidence); err != nil {
			return nil, fmt.Errorf("run finding %s: evidence: %w", f.Rule, err)
		}
		if len(f.Evidence) == 0 {
			f.Evidence = nil
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
