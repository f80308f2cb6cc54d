package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/profan-dev/profan"
	"github.com/profan-dev/profan/analysis"
)

// OlderVerdicts returns the runs whose stored verdict an older verdict
// maker than this profan's made, oldest first.
func (db *DB) OlderVerdicts(ctx context.Context) ([]RunRecord, error) {
	runs, err := db.queryRuns(ctx, `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.kernels, r.verdict
FROM runs r WHERE r.verdict < ? ORDER BY r.id DESC`, analysis.VerdictVersion)
	if err != nil {
		return nil, fmt.Errorf("listing runs of older verdicts: %w", err)
	}
	for i, j := 0, len(runs)-1; i < j; i, j = i+1, j-1 {
		runs[i], runs[j] = runs[j], runs[i]
	}
	return runs, nil
}

// RemakeVerdict makes the verdict of run runID again from its stored
// counters with opt, as EachVerdict does on read, and stores it in place
// of the one stored, with this profan's verdict version, in one
// transaction: the run's kernel records are written again, launch by
// launch, as an ingest of the same export writes them now (a launch
// series the new verdicts tell apart is split). The run keeps its ID,
// digest, labels and run-level findings (the host transfers those were
// made from are not stored). The launches are held in memory meanwhile.
func (db *DB) RemakeVerdict(ctx context.Context, runID int64, opt analysis.Options) error {
	if err := db.remakeVerdict(ctx, runID, opt); err != nil {
		return fmt.Errorf("re-making the verdict of run %d: %w", runID, db.d.formatError(err))
	}
	return nil
}

func (db *DB) remakeVerdict(ctx context.Context, runID int64, opt analysis.Options) error {
	rec, err := db.Run(ctx, runID)
	if err != nil {
		return err
	}
	ks, err := db.Kernels(ctx, runID)
	if err != nil {
		return err
	}
	run := &profan.Run{Source: rec.Source, Tool: rec.Tool, Format: rec.Format, Digest: rec.Digest, Size: rec.Size, ToolVersion: rec.ToolVersion}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	w := &RunWriter{db: db, ctx: ctx, tx: tx, id: runID}
	defer w.Rollback()
	q := db.d.rebind
	// kernel_values has no REFERENCES clause (store/migrations/0001): its
	// rows go first, metric by metric over the run's range of kernel IDs.
	var lo, hi sql.NullInt64
	if err := tx.QueryRowContext(ctx, q(`SELECT min(id), max(id) FROM kernels WHERE run_id = ?`), runID).Scan(&lo, &hi); err != nil {
		return err
	}
	if lo.Valid {
		if _, err := tx.ExecContext(ctx, q(`DELETE FROM kernel_values WHERE metric_id IN (SELECT id FROM metric_names) AND kernel_id BETWEEN ? AND ?
AND kernel_id IN (SELECT id FROM kernels WHERE run_id = ?)`), lo.Int64, hi.Int64, runID); err != nil {
			return err
		}
	}
	// Their findings and launch series go with them (ON DELETE CASCADE).
	if _, err := tx.ExecContext(ctx, q(`DELETE FROM kernels WHERE run_id = ?`), runID); err != nil {
		return err
	}
	if err := w.prepare(); err != nil {
		return err
	}
	vs := analysis.NewStream(opt, false)
	for _, k := range ks {
		if err := w.AddVerdict(vs.Transient(run, k.Kernel)); err != nil {
			return err
		}
	}
	_, err = w.Commit()
	return err
}
