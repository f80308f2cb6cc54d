package store

import (
	"context"
	"database/sql"
	"fmt"
)

// OlderVerdicts returns the runs whose stored verdict was made by a verdict
// maker older than version, oldest first.
func (db *DB) OlderVerdicts(ctx context.Context, version int) ([]RunRecord, error) {
	runs, err := db.queryRuns(ctx, `SELECT r.id, r.digest, r.source, r.tool, r.format, r.tool_version, r.device, r.size, r.created, r.captured, r.kernels, r.verdict,
(SELECT count(*) FROM run_kernel_names n WHERE n.run_id = r.id)
FROM runs r WHERE r.verdict < ? ORDER BY r.id DESC`, version)
	if err != nil {
		return nil, fmt.Errorf("listing runs of older verdicts: %w", err)
	}
	for i, j := 0, len(runs)-1; i < j; i, j = i+1, j-1 {
		runs[i], runs[j] = runs[j], runs[i]
	}
	return runs, nil
}

// RewriteKernels writes the kernel records of run runID again, in one
// transaction: fill is given the records stored and a writer, on which it
// adds the new ones, and the run is marked as holding the verdict of maker
// version. The run keeps its ID, digest, labels and run-level findings.
// The records are held in memory meanwhile.
func (db *DB) RewriteKernels(ctx context.Context, runID int64, version int, fill func(run RunRecord, ks []StoredKernel, w *RunWriter) error) error {
	if err := db.rewriteKernels(ctx, runID, version, fill); err != nil {
		return fmt.Errorf("re-making the verdict of run %d: %w", runID, db.d.formatError(err))
	}
	return nil
}

func (db *DB) rewriteKernels(ctx context.Context, runID int64, version int, fill func(run RunRecord, ks []StoredKernel, w *RunWriter) error) error {
	rec, err := db.Run(ctx, runID)
	if err != nil {
		return err
	}
	ks, err := db.Kernels(ctx, runID)
	if err != nil {
		return err
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	w := &RunWriter{db: db, ctx: ctx, tx: tx, id: runID, verdict: version}
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
	if err := fill(rec, ks, w); err != nil {
		return err
	}
	_, err = w.Commit()
	return err
}
