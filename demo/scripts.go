package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/moonmind-ai/moonmind/demo/sim"
	"github.com/moonmind-ai/moonmind/scripts"
)

// checkScripts tells whether dir, the -scripts folder, holds the soldiers'
// role file; the error names the file it looked for, as
// "-scripts /x: open /x/squad.lua: no such file or directory".
func checkScripts(dir string) error {
	f, err := os.Open(filepath.Join(dir, sim.DefaultRole))
	if err != nil {
		return fmt.Errorf("-scripts %s: %w", dir, err)
	}
	return f.Close()
}

// eachScript calls put with the name (slash-separated, relative to the
// scripts folder) and the contents of every script built into the demo
// (package scripts), stopping at put's first error. unpack, for the
// desktop and for the browser, writes them where the battle reads them.
func eachScript(put func(name string, b []byte) error) error {
	return fs.WalkDir(scripts.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := scripts.FS.ReadFile(p)
		if err != nil {
			return err
		}
		return put(p, b)
	})
}
