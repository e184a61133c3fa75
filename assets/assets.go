// Package assets holds what the demo draws and plays on, made by the
// project (see LICENSE beside it): the battlefield's tile map and the
// sprite sheet, embedded with go:embed so the demo binary, and its
// WebAssembly build, need no files beside them.
//
// The map is text, one character a tile (see Legend); the sprite sheet is a
// PNG of Cell x Cell pixel cells in one row, in the order of the Sprite
// constants, drawn in code by package sprites (go generate ./assets
// rewrites sprites.png; a test checks the two agree).
package assets

import _ "embed"

//go:generate go run ./gen

// Field is the default battlefield: 36 x 30 tiles (see Legend).
//
//go:embed maps/field.txt
var Field string

// SpritesPNG is the sprite sheet, a PNG (see package sprites).
//
//go:embed sprites.png
var SpritesPNG []byte

// Legend says what each character of a map stands for. Every tile that is
// not a wall or low cover can be walked on.
const Legend = `# wall: blocks walking, sight and rounds
= low cover (sandbags): blocks walking, not sight
. open ground
a ammo crate
B R rally point of blue, of red (a medic heals there)
b r spawn point of a blue, a red soldier
1 2 cover spot of blue, of red (beside low cover)`
