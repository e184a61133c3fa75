package luabind

import (
	"errors"
	"io"
	"os"
	"strconv"
)

// MaxScriptBytes is the largest role or module file the runtime reads,
// 8 MiB: a role file, a file it extends and a file require reads are
// refused with an error above it, before any of it is read, so a huge
// file dropped in the scripts folder cannot exhaust memory.
const MaxScriptBytes = 8 << 20

// readScript reads the script file at path. It refuses, before reading, a
// path that is not a regular file (a named pipe would block the tick
// forever, a device could stream without end) and a file larger than
// MaxScriptBytes; a file that grows while it is read is cut off there and
// refused too. Errors name the path.
func readScript(path string) ([]byte, error) {
	// Look before opening: opening a named pipe waits for a writer. A
	// path that cannot be looked at is left to Open to report.
	if fi, err := os.Stat(path); err == nil {
		if err := checkScriptFile(path, fi); err != nil {
			return nil, err
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkScriptFile(path, fi); err != nil { // replaced since the first look
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxScriptBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxScriptBytes {
		return nil, tooBig(path, int64(len(b)))
	}
	return b, nil
}

// checkScriptFile refuses a file that is not regular or is too large.
func checkScriptFile(path string, fi os.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return errors.New(path + " is " + fileKind(fi.Mode()) + ", not a regular file: scripts are read only from plain files")
	}
	if fi.Size() > MaxScriptBytes {
		return tooBig(path, fi.Size())
	}
	return nil
}

func tooBig(path string, size int64) error {
	return errors.New(path + " is " + strconv.FormatInt(size, 10) + " bytes or more, larger than a script file may be (" +
		strconv.Itoa(MaxScriptBytes) + " bytes, luabind.MaxScriptBytes)")
}

// fileKind names a file mode that is not a regular file's.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file (" + m.Type().String() + ")"
}
