//go:build (linux && !android) || freebsd || netbsd || openbsd

package flags

import "os"

// noDisplay reports whether no X server is named: ebiten's desktop build
// here opens its window through X11 only (a Wayland session offers one
// through Xwayland, which sets DISPLAY too).
func noDisplay() bool { return os.Getenv("DISPLAY") == "" }
