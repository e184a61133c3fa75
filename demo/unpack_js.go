//go:build js

package main

import (
	"errors"
	"path"
	"syscall/js"
)

// unpack copies the scripts built into the demo into the page's in-memory
// file system (demo/web/fs.js), under "scripts", so that the demo reads
// them as it would from disk. The returned function does nothing: the
// page's files go when the page does.
func unpack() (string, func(), error) {
	mfs := js.Global().Get("moonmindFS")
	if mfs.IsUndefined() {
		return "", nil, errors.New("the page has no moonmindFS (load fs.js after wasm_exec.js)")
	}
	const dir = "scripts"
	err := eachScript(func(name string, b []byte) error {
		buf := js.Global().Get("Uint8Array").New(len(b))
		js.CopyBytesToJS(buf, b)
		mfs.Call("put", path.Join(dir, name), buf)
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	return dir, func() {}, nil
}
