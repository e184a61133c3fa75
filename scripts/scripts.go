// Package scripts embeds the shipped Lua roles (the *.lua files beside
// it), so a build without a file system, the demo's WebAssembly build,
// carries them. Everywhere else the scripts are read from disk, so they
// can be edited and reloaded.
package scripts

import "embed"

// FS holds soldier.lua and the other *.lua files of this folder, at the
// top of the FS ("soldier.lua").
//
//go:embed *.lua
var FS embed.FS
