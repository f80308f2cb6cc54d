package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/profan-dev/profan"
)

// Workload is what a run measures: the program the export names and the
// set of its kernel names. Two runs of one program share most of their
// kernels; runs of other programs, even ones labelled alike, share few.
type Workload struct {
	Program string   // the process names, sorted, comma separated; "" when the export names none
	Kernels []string // distinct kernel names, sorted
}

// WorkloadBuilder gathers a workload from kernels as they stream by.
type WorkloadBuilder struct {
	procs map[string]struct{}
	names map[string]struct{}
	last  string
}

// Add counts one kernel record.
func (b *WorkloadBuilder) Add(k *profan.Kernel) {
	if b.names == nil {
		b.names, b.procs = map[string]struct{}{}, map[string]struct{}{}
	}
	if k.Name != b.last {
		b.names[k.Name] = struct{}{}
		b.last = k.Name
	}
	b.addProcess(k.Process)
}

func (b *WorkloadBuilder) addProcess(p string) {
	if b.procs == nil {
		b.procs = map[string]struct{}{}
	}
	if programName(p) {
		b.procs[p] = struct{}{}
	}
}

// Workload returns what was added.
func (b *WorkloadBuilder) Workload() Workload {
	return Workload{Program: program(b.procs), Kernels: sortedSet(b.names)}
}

// programName reports whether an exported process field names a program:
// a bare process ID (what ncu gives without a name) differs from run to
// run and says nothing about the workload.
func programName(p string) bool {
	return p != "" && strings.Trim(p, "0123456789") != ""
}

// maxProgram bounds the stored program: a capture of many processes is
// named by its first few.
const maxProgram = 256

func program(procs map[string]struct{}) string {
	s := strings.Join(sortedSet(procs), ",")
	if len(s) > maxProgram {
		s = strings.ToValidUTF8(s[:maxProgram], "")
	}
	return s
}

func sortedSet(m map[string]struct{}) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Shared returns how many kernel names w and o have in common, and their
// Jaccard similarity (shared over the union; 0 when both are empty).
func (w Workload) Shared(o Workload) (int, float64) {
	n, i, j := 0, 0, 0
	for i < len(w.Kernels) && j < len(o.Kernels) {
		switch c := strings.Compare(w.Kernels[i], o.Kernels[j]); {
		case c == 0:
			n++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	union := len(w.Kernels) + len(o.Kernels) - n
	if union == 0 {
		return 0, 0
	}
	return n, float64(n) / float64(union)
}

// Workload returns the stored workload of run id.
func (db *DB) Workload(ctx context.Context, id int64) (Workload, error) {
	var w Workload
	err := db.db.QueryRowContext(ctx, db.d.rebind(`SELECT program FROM runs WHERE id = ?`), id).Scan(&w.Program)
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if err != nil {
		return w, fmt.Errorf("reading the workload of run %d: %w", id, err)
	}
	rows, err := db.db.QueryContext(ctx, db.d.rebind(`SELECT DISTINCT n.name FROM run_kernel_names r JOIN kernel_names n ON n.id = r.name_id WHERE r.run_id = ?`), id)
	if err != nil {
		return w, fmt.Errorf("reading the workload of run %d: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return w, err
		}
		w.Kernels = append(w.Kernels, name)
	}
	if err := rows.Err(); err != nil {
		return w, fmt.Errorf("reading the workload of run %d: %w", id, err)
	}
	term(&w.Program)
	slices.Sort(w.Kernels)
	return w, nil
}

// writeWorkload stores the workload of the run being written: the names
// the writer met and the program of its kernels. A run written again
// (RemakeVerdict) keeps the rows it has.
func (w *RunWriter) writeWorkload() error {
	ids := make([]int64, 0, len(w.names))
	for _, id := range w.names {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	q := w.db.d.rebind
	for len(ids) > 0 {
		n := min(len(ids), valueBatch)
		args := make([]any, 0, 2*n)
		for _, id := range ids[:n] {
			args = append(args, w.id, id)
		}
		stmt := `INSERT INTO run_kernel_names (run_id, name_id) VALUES ` +
			strings.TrimSuffix(strings.Repeat("(?, ?), ", n), ", ") + ` ON CONFLICT DO NOTHING`
		if _, err := w.tx.ExecContext(w.ctx, q(stmt), args...); err != nil {
			return err
		}
		ids = ids[n:]
	}
	_, err := w.tx.ExecContext(w.ctx, q(`UPDATE runs SET program = ? WHERE id = ?`), program(w.procs.procs), w.id)
	return err
}
