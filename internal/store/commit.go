package store

import (
	"context"
	"sync"
)

// commits is held across each run's commit and its Committed call.
var commits sync.Mutex

// HoldCommits waits for a commit under way, and what its caller is told
// of it (RunInfo.Committed), and keeps any other from starting until
// release: the process is about to end on a signal, and must say what it
// stored. A commit is short: it writes no checkpoint (see checkpoint).
func HoldCommits() (release func()) {
	commits.Lock()
	return commits.Unlock
}

// checkpoint copies a SQLite database's write-ahead log into its file
// after a run is committed, as SQLite's automatic checkpoint did inside
// the commit; that one, for a large run, held the commit for seconds
// that no signal could cut short (sqlite3_interrupt does not reach it),
// so that an interrupted ingest ended half a second later saying nothing
// was stored when its run was. The automatic checkpoint is off
// (sqliteDriver); this one takes ctx, and a signal stops it. A checkpoint
// not made leaves the committed runs in the log, which every reader reads
// and the last connection's close, or the next commit, copies.
func (db *DB) checkpoint(ctx context.Context) {
	if db.d != sqliteDialect || ctx.Err() != nil {
		return
	}
	db.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
}
