//go:build !((linux && !android) || freebsd || netbsd || openbsd)

package flags

// noDisplay reports false: on this system a window needs no environment
// variable (the browser, macOS, Windows).
func noDisplay() bool { return false }
