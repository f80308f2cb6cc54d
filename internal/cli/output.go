package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/profan-dev/profan/internal/safe"
	"github.com/spf13/cobra"
)

// outputCommands are the commands that print a result: -o/--output
// writes it to a file instead (report keeps --html).
var outputCommands = []string{"analyze", "gate", "diff", "trend", "runs", "explain"}

// addOutputFlags gives each of outputCommands -o/--output.
func addOutputFlags(root *cobra.Command) {
	for _, c := range root.Commands() {
		if slices.Contains(outputCommands, c.Name()) && c.Flags().Lookup("output") == nil && c.Flags().ShorthandLookup("o") == nil {
			c.Flags().StringP("output", "o", "", "write the result to `FILE`, whole or not at all (a temporary file beside it, renamed once complete); - is standard output")
		}
	}
}

// outputFile is the file -o names, written through a temporary file
// beside it: a failure or a signal leaves the old file (or none), never a
// cut one.
type outputFile struct {
	path string
	f    *os.File
	w    *bufio.Writer
}

// openOutput opens the temporary file of cmd's -o; nil when the result
// goes to standard output.
func openOutput(cmd *cobra.Command) (*outputFile, error) {
	fl := cmd.Flags().Lookup("output")
	if fl == nil || fl.Value.String() == "" || fl.Value.String() == "-" {
		return nil, nil
	}
	path := fl.Value.String()
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, FlagErrorf("--output %s: not a regular file", path)
	}
	f, err := tempBeside(path)
	if err != nil {
		return nil, err
	}
	return &outputFile{path: path, f: f, w: bufio.NewWriter(f)}, nil
}

// tempBeside creates the temporary file that is renamed over path once
// written. Its error names path, not the temporary file: "out/r.html:
// cannot be written: no such file or directory".
func tempBeside(path string) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot be written: %w", safe.Term(path), err)
	}
	return f, nil
}

// finish renames the complete file over path when ok, else removes it.
func (o *outputFile) finish(ok bool) error {
	if !ok {
		o.f.Close()
		os.Remove(o.f.Name())
		return nil
	}
	err := o.w.Flush()
	if err == nil {
		mode := os.FileMode(0o644)
		if st, serr := os.Stat(o.path); serr == nil {
			mode = st.Mode().Perm()
		}
		err = o.f.Chmod(mode)
	}
	if err == nil {
		err = o.f.Sync()
	}
	if cerr := o.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(o.f.Name(), o.path)
	}
	if err != nil {
		os.Remove(o.f.Name())
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return nil
}
