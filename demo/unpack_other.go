//go:build !js

package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// unpack writes the scripts built into the demo to a new temporary folder,
// which the battle reads them from, and returns the folder and a function
// that removes it.
func unpack() (string, func(), error) {
	dir, err := os.MkdirTemp("", "moonmind-demo-scripts-")
	if err != nil {
		return "", nil, fmt.Errorf("the built-in scripts: %w", err)
	}
	remove := func() { _ = os.RemoveAll(dir) }
	err = eachScript(func(name string, b []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, b, 0o644)
	})
	if err != nil {
		remove()
		return "", nil, fmt.Errorf("the built-in scripts: %w", err)
	}
	return dir, remove, nil
}
