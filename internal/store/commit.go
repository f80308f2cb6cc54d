package store

import (
	"context"
	"sync"
	"time"
)

// commits is held across each run's commit and its Committed call.
var commits sync.Mutex

// HoldCommits waits, up to wait, for a commit under way, and what its
// caller is told of it (RunInfo.Committed), and keeps any other from
// starting until release: the process is about to end on a signal, and
// must say what it stored. A SQLite commit is short: it writes no
// checkpoint (see checkpoint). ok is false when a commit did not end in
// time (a PostgreSQL commit held up by its network): whether its run is
// stored is not known, and the process ends all the same.
func HoldCommits(wait time.Duration) (release func(), ok bool) {
	end := time.Now().Add(wait)
	for !commits.TryLock() {
		if time.Now().After(end) {
			return func() {}, false
		}
		time.Sleep(2 * time.Millisecond)
	}
	return commits.Unlock, true
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
