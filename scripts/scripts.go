// Package scripts embeds the shipped Lua roles (the *.lua files beside
// it), so the demo binary, for the desktop and for the browser, carries
// them and runs from any folder. The demo's -scripts flag reads them from
// a folder on disk instead, where they can be edited and reloaded.
package scripts

import "embed"

// FS holds soldier.lua and the other *.lua files of this folder, at the
// top of the FS ("soldier.lua").
//
//go:embed *.lua
var FS embed.FS
