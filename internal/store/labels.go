package store

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/profan-dev/profan/internal/safe"
)

// LabelConflictError is returned by AddLabels when the run has a label
// with the same key and another value: a stored label is never replaced.
type LabelConflictError struct {
	Run             int64
	Key, Have, Want string
}

func (e *LabelConflictError) Error() string {
	k := safe.Term(e.Key)
	return fmt.Sprintf("run %d has label %s=%s already, not %s=%s", e.Run, k, safe.Term(e.Have), k, safe.Term(e.Want))
}

// AddLabels gives run id the labels it lacks, in one transaction, and
// returns the keys it added (sorted). A label the run has already with the
// same value is left as it is; one with another value is a
// *LabelConflictError, and then nothing is written.
func (db *DB) AddLabels(ctx context.Context, id int64, labels map[string]string) ([]string, error) {
	if err := checkLabels(labels); err != nil {
		return nil, fmt.Errorf("add labels: %w", err)
	}
	if _, err := db.Run(ctx, id); err != nil {
		return nil, fmt.Errorf("add labels: %w", err)
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("add labels to run %d: %w", id, db.d.formatError(err))
	}
	defer tx.Rollback()
	q := db.d.rebind
	var added []string
	for _, k := range sortedKeys(labels) {
		// ON CONFLICT DO NOTHING: a concurrent writer may add the same key;
		// the value read back then says whether it agrees.
		res, err := tx.ExecContext(ctx, q(`INSERT INTO run_labels (run_id, key, value) VALUES (?, ?, ?) ON CONFLICT (run_id, key) DO NOTHING`),
			id, k, labels[k])
		if err != nil {
			return nil, fmt.Errorf("add label %s to run %d: %w", safe.Term(k), id, db.d.formatError(err))
		}
		if n, err := res.RowsAffected(); err == nil && n == 1 {
			added = append(added, k)
			continue
		}
		var have string
		if err := tx.QueryRowContext(ctx, q(`SELECT value FROM run_labels WHERE run_id = ? AND key = ?`), id, k).Scan(&have); err != nil {
			return nil, fmt.Errorf("read label %s of run %d: %w", safe.Term(k), id, db.d.formatError(err))
		}
		if have != labels[k] {
			return nil, &LabelConflictError{Run: id, Key: k, Have: have, Want: labels[k]}
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("add labels to run %d: %w", id, db.d.formatError(err))
	}
	return added, nil
}

// maxName bounds the names and label keys a run database stores, the same
// on both backends (PostgreSQL's indexes refuse rows of about 2.7 kB).
const maxName = 1024

// checkLabels refuses an empty or blank label key and one over maxName.
// (Values are stored whole, however long: their index holds a hash.)
func checkLabels(labels map[string]string) error {
	for _, k := range sortedKeys(labels) {
		switch {
		case k == "":
			return errors.New("empty label key")
		case strings.TrimSpace(k) == "":
			return fmt.Errorf("label key %q is blank", safe.Term(k))
		case len(k) > maxName:
			return fmt.Errorf("label key %q...: %d bytes, longer than %d", safe.Term(k[:40]), len(k), maxName)
		}
	}
	return nil
}
