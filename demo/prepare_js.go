//go:build js

package main

import (
	"fmt"
	"io/fs"
	"path"
	"syscall/js"

	"github.com/moonmind-ai/moonmind/scripts"
)

// prepare copies the embedded scripts into the page's in-memory file
// system (demo/web/fs.js), under dir, so that the demo reads them as it
// does from disk.
func prepare(dir string) error {
	mfs := js.Global().Get("moonmindFS")
	if mfs.IsUndefined() {
		return fmt.Errorf("demo: the page has no moonmindFS (load fs.js after wasm_exec.js)")
	}
	return fs.WalkDir(scripts.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := scripts.FS.ReadFile(p)
		if err != nil {
			return err
		}
		buf := js.Global().Get("Uint8Array").New(len(b))
		js.CopyBytesToJS(buf, b)
		mfs.Call("put", path.Join(dir, p), buf)
		return nil
	})
}
