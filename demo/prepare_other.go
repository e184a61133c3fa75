//go:build !js

package main

// prepare does nothing outside the browser: the scripts are read from
// disk, where they can be edited and reloaded.
func prepare(string) error { return nil }
