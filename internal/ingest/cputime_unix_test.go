//go:build unix

package ingest

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: a
// benchmark's figure that the load of a shared machine moves less than
// its wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
