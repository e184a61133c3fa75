package luavm

import "unsafe"

// StringData is the address of s's bytes: strings that share it share
// their memory (a Lua string copied from value to value), so the memory
// walk counts a long string once however many values hold it. For an
// empty string it is unspecified.
func StringData(s string) *byte { return unsafe.StringData(s) }

// StringBytes returns s's bytes in place, without a copy, for reading
// only (gopher-lua's pattern matcher takes a []byte): a write to it
// breaks every holder of s.
func StringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }
