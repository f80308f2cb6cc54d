package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Fresh is a SQLite database being made for a path where none is yet: it
// is created at a temporary path beside that one and put in place by
// Publish, once something is stored in it, or removed by Discard. Input
// refused as it is stored then leaves no empty database behind, without
// being read a first time to check it.
type Fresh struct {
	*DB
	path, tmp string
}

// ErrCreatedMeanwhile is Publish's error when another process created the
// database at the path meanwhile: nothing was published, and what this one
// stored is to be stored again into that database.
var ErrCreatedMeanwhile = errors.New("the database was created meanwhile by another process")

// OpenFresh creates and migrates a SQLite database at a temporary path
// (".NAME.new-RANDOM") beside path, a file that does not exist yet (see
// NotCreated). Messages name path. A process killed before Publish or
// Discard leaves that temporary file.
func OpenFresh(path string) (*Fresh, error) {
	if _, err := dialectOf(path); err != nil {
		return nil, err
	}
	dir, base := filepath.Split(path)
	var tmp string
	for {
		var b [6]byte
		rand.Read(b[:])
		tmp = filepath.Join(dir, "."+base+".new-"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, redactError(path, fmt.Errorf("creating %s: %w", path, err))
		}
		f.Close()
		break
	}
	db, err := openDSN(context.Background(), tmp, freshDSN, false) // a new local file: quick
	if err != nil {
		removeSQLite(tmp)
		return nil, redactError(path, err)
	}
	db.name = sqliteDialect.display(path)
	unpublished.Store(tmp, struct{}{})
	return &Fresh{DB: db, path: path, tmp: tmp}, nil
}

// unpublished holds the temporary paths of the fresh databases neither
// published nor discarded yet, for RemoveUnpublished.
var unpublished sync.Map

// RemoveUnpublished removes every fresh database of this process that was
// neither published nor discarded: for a process about to exit without
// returning (a command that did not stop in time after a signal), so that
// it leaves no ".NAME.new-RANDOM" file behind. The databases must not be
// used after it.
func RemoveUnpublished() {
	unpublished.Range(func(tmp, _ any) bool {
		removeSQLite(tmp.(string))
		unpublished.Delete(tmp)
		return true
	})
}

// Publish closes the database and puts it at its path, unless another
// process created a database there meanwhile (ErrCreatedMeanwhile): then
// it is removed.
func (f *Fresh) Publish() error {
	defer unpublished.Delete(f.tmp)
	// A write-ahead log database, as sqliteDSN makes every other (see
	// freshDSN), synced before it is put in place.
	if _, err := f.DB.db.Exec("PRAGMA journal_mode = WAL"); err != nil {
		f.DB.Close()
		removeSQLite(f.tmp)
		return fmt.Errorf("closing %s: %w", f.path, err)
	}
	if err := f.DB.Close(); err != nil {
		removeSQLite(f.tmp)
		return fmt.Errorf("closing %s: %w", f.path, err)
	}
	if err := syncFile(f.tmp); err != nil {
		removeSQLite(f.tmp)
		return fmt.Errorf("closing %s: %w", f.path, err)
	}
	// The last connection's close checkpoints the write-ahead log into the
	// file and removes it: a log left would hold committed runs.
	if _, err := os.Stat(f.tmp + "-wal"); err == nil {
		return fmt.Errorf("closing %s: its write-ahead log %s-wal was not checkpointed; the runs are in %s", f.path, f.tmp, f.tmp)
	}
	// A link is never made over an existing file, as a rename would be.
	err := os.Link(f.tmp, f.path)
	if errors.Is(err, fs.ErrExist) {
		removeSQLite(f.tmp)
		return ErrCreatedMeanwhile
	}
	if err != nil {
		// A file system without hard links: rename, unless the path
		// exists now.
		if _, serr := os.Lstat(f.path); serr == nil {
			removeSQLite(f.tmp)
			return ErrCreatedMeanwhile
		}
		if err := os.Rename(f.tmp, f.path); err != nil {
			removeSQLite(f.tmp)
			return fmt.Errorf("creating %s: %w", f.path, err)
		}
		return nil
	}
	return os.Remove(f.tmp)
}

// Discard closes the database and removes it: nothing is created at its
// path.
func (f *Fresh) Discard() {
	defer unpublished.Delete(f.tmp)
	f.DB.Close()
	removeSQLite(f.tmp)
}

// removeSQLite removes a SQLite file and its write-ahead log and index.
func removeSQLite(path string) {
	for _, ext := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + ext)
	}
}

// freshDSN is the DSN of a fresh database: as sqliteDSN, but its rollback
// journal kept in memory, not a write-ahead log, and no fsync at its
// commits. Until Publish the file is no database anyone opens: a process
// killed meanwhile leaves a temporary file (see OpenFresh), never a
// database at the path. Publish makes it a write-ahead log database, as
// every other, and syncs it before it is put in place; a run rolled back
// before then (an export refused as it is stored) is undone from the
// journal in memory. Storing 100 MB of ncu details wrote each page once
// (3,700 writes) where the log wrote it twice and the checkpoint a third
// time (14,800 writes).
func freshDSN(path string) string {
	r := strings.NewReplacer("_journal_mode=WAL", "_journal_mode=MEMORY", "_synchronous=NORMAL", "_synchronous=OFF")
	return r.Replace(sqliteDSN(path))
}

// syncFile flushes the file at path to its disk.
func syncFile(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
