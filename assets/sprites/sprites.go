// Package sprites draws the demo's sprite sheet in code: tiles (ground,
// wall, sandbags, crates, rally flags), soldiers of both teams (facing
// right, to be rotated), the fallen, a muzzle flash and a hit spark, as
// small pixel art. It uses only the standard library's image packages;
// assets/gen writes the result to assets/sprites.png.
package sprites

import (
	"image"
	"image/color"
	"math"
)

// Cell is the side of one sprite, in pixels.
const Cell = 24

// The sprites, by their index in the sheet (left to right).
const (
	Ground = iota
	Ground2
	Wall
	Sandbags
	Crate
	CrateEmpty
	RallyBlue
	RallyRed
	SoldierBlue
	SoldierRed
	FallenBlue
	FallenRed
	Flash
	Spark
	White // a solid white cell, for rectangles and lines tinted at draw time
	Count // the number of sprites
)

// Rect returns the sheet's rectangle of sprite i.
func Rect(i int) image.Rectangle {
	return image.Rect(i*Cell, 0, (i+1)*Cell, Cell)
}

// The palette.
var (
	grass      = color.RGBA{0x4a, 0x6b, 0x3a, 0xff}
	grassDark  = color.RGBA{0x3e, 0x5c, 0x31, 0xff}
	grassLight = color.RGBA{0x58, 0x7a, 0x44, 0xff}
	dirt       = color.RGBA{0x6b, 0x5f, 0x45, 0xff}
	stone      = color.RGBA{0x7c, 0x7a, 0x74, 0xff}
	stoneLight = color.RGBA{0x9a, 0x98, 0x90, 0xff}
	stoneDark  = color.RGBA{0x4c, 0x4a, 0x46, 0xff}
	sand       = color.RGBA{0xc2, 0xaa, 0x74, 0xff}
	sandDark   = color.RGBA{0x8a, 0x74, 0x48, 0xff}
	wood       = color.RGBA{0x9a, 0x6a, 0x36, 0xff}
	woodDark   = color.RGBA{0x5a, 0x3a, 0x1a, 0xff}
	brass      = color.RGBA{0xe0, 0xc0, 0x40, 0xff}
	pole       = color.RGBA{0xe0, 0xe0, 0xd8, 0xff}
	skin       = color.RGBA{0xe0, 0xb0, 0x88, 0xff}
	gun        = color.RGBA{0x28, 0x28, 0x28, 0xff}
	// TeamColor and TeamDark are the two teams' colours (blue, red).
	TeamColor = [2]color.RGBA{{0x3c, 0x8c, 0xf0, 0xff}, {0xe8, 0x48, 0x40, 0xff}}
	TeamDark  = [2]color.RGBA{{0x1a, 0x3c, 0x70, 0xff}, {0x70, 0x1e, 0x1a, 0xff}}
)

// Sheet draws the whole sprite sheet: Count cells of Cell x Cell pixels in
// one row. The result is the same on every call.
func Sheet() *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, Count*Cell, Cell))
	c := &canvas{img: img}
	c.at(Ground)
	c.ground(1)
	c.at(Ground2)
	c.ground(2)
	c.at(Wall)
	c.wall()
	c.at(Sandbags)
	c.sandbags()
	c.at(Crate)
	c.crate(true)
	c.at(CrateEmpty)
	c.crate(false)
	c.at(RallyBlue)
	c.rally(0)
	c.at(RallyRed)
	c.rally(1)
	c.at(SoldierBlue)
	c.soldier(0)
	c.at(SoldierRed)
	c.soldier(1)
	c.at(FallenBlue)
	c.fallen(0)
	c.at(FallenRed)
	c.fallen(1)
	c.at(Flash)
	c.flash()
	c.at(Spark)
	c.spark()
	c.at(White)
	c.rect(0, 0, Cell, Cell, color.RGBA{0xff, 0xff, 0xff, 0xff})
	return img
}

// canvas draws into one cell of the sheet.
type canvas struct {
	img *image.NRGBA
	ox  int // the cell's left edge
}

func (c *canvas) at(i int) { c.ox = i * Cell }

func (c *canvas) set(x, y int, col color.Color) {
	if x >= 0 && y >= 0 && x < Cell && y < Cell {
		c.img.Set(c.ox+x, y, col)
	}
}

func (c *canvas) rect(x, y, w, h int, col color.Color) {
	for j := y; j < y+h; j++ {
		for i := x; i < x+w; i++ {
			c.set(i, j, col)
		}
	}
}

// disc fills the pixels whose centres lie within r of (cx, cy).
func (c *canvas) disc(cx, cy, r float64, col color.Color) {
	for j := 0; j < Cell; j++ {
		for i := 0; i < Cell; i++ {
			if math.Hypot(float64(i)+0.5-cx, float64(j)+0.5-cy) <= r {
				c.set(i, j, col)
			}
		}
	}
}

// hash is a small integer hash for speckles, so the sheet is the same on
// every run without a random source.
func hash(x, y, k int) uint32 {
	h := uint32(x)*374761393 + uint32(y)*668265263 + uint32(k)*2246822519
	h = (h ^ h>>13) * 1274126177
	return h ^ h>>16
}

func (c *canvas) ground(k int) {
	c.rect(0, 0, Cell, Cell, grass)
	for j := 0; j < Cell; j++ {
		for i := 0; i < Cell; i++ {
			switch h := hash(i, j, k) % 23; {
			case h == 0:
				c.set(i, j, grassDark)
			case h == 1:
				c.set(i, j, grassLight)
			case h == 2 && k == 2:
				c.set(i, j, dirt)
			}
		}
	}
}

func (c *canvas) wall() {
	c.rect(0, 0, Cell, Cell, stoneDark)
	// Bricks in three courses, offset by half a brick.
	for row := 0; row < 3; row++ {
		y := row * 8
		off := (row % 2) * 6
		for x := -off; x < Cell; x += 12 {
			c.rect(x+1, y+1, 10, 6, stone)
			c.rect(x+1, y+1, 10, 1, stoneLight)
		}
	}
}

func (c *canvas) sandbags() {
	c.rect(0, 0, Cell, Cell, grass)
	for row := 0; row < 3; row++ {
		y := 2 + row*7
		off := (row % 2) * 5
		for x := -off; x < Cell; x += 10 {
			c.rect(x+1, y, 9, 6, sand)
			c.rect(x+1, y+5, 9, 1, sandDark)
			c.rect(x+1, y, 1, 6, sandDark)
		}
	}
}

func (c *canvas) crate(full bool) {
	c.rect(0, 0, Cell, Cell, grass)
	c.rect(3, 3, 18, 18, wood)
	c.rect(3, 3, 18, 2, woodDark)
	c.rect(3, 19, 18, 2, woodDark)
	c.rect(3, 3, 2, 18, woodDark)
	c.rect(19, 3, 2, 18, woodDark)
	if full {
		for i := 0; i < 4; i++ { // magazines, brass tips up
			c.rect(6+i*3, 7, 2, 10, gun)
			c.rect(6+i*3, 7, 2, 2, brass)
		}
	} else {
		c.rect(5, 5, 14, 14, woodDark)
	}
}

func (c *canvas) rally(team int) {
	c.rect(0, 0, Cell, Cell, grass)
	for a := 0.0; a < 2*math.Pi; a += 0.05 { // a chalk ring
		c.set(int(12+10*math.Cos(a)), int(12+10*math.Sin(a)), pole)
	}
	c.rect(7, 3, 2, 17, pole)
	c.rect(9, 3, 9, 6, TeamColor[team])
	c.rect(9, 8, 9, 1, TeamDark[team])
	// A red cross: the medic.
	c.rect(14, 14, 6, 2, color.RGBA{0xf0, 0xf0, 0xf0, 0xff})
	c.rect(16, 12, 2, 6, color.RGBA{0xf0, 0xf0, 0xf0, 0xff})
	c.rect(15, 15, 4, 0, color.RGBA{0xd0, 0x20, 0x20, 0xff})
}

// soldier is seen from above, facing right: shoulders in the team
// colour, a helmet, and the rifle forward.
func (c *canvas) soldier(team int) {
	c.rect(12, 11, 11, 2, gun) // rifle
	c.rect(21, 11, 2, 2, TeamDark[team])
	c.disc(10, 12, 8, TeamDark[team])
	c.disc(10, 12, 7, TeamColor[team])
	c.rect(13, 15, 5, 3, skin) // the hand on the rifle
	c.disc(10, 12, 4.2, TeamDark[team])
	c.disc(9.5, 11.5, 2, TeamColor[team])
}

func (c *canvas) fallen(team int) {
	dark := TeamDark[team]
	col := color.RGBA{dark.R, dark.G, dark.B, 0xc0}
	c.rect(4, 10, 13, 6, col)
	c.disc(18.5, 12.5, 3.5, col)
	c.rect(2, 18, 9, 2, color.RGBA{0x28, 0x28, 0x28, 0xa0}) // the dropped rifle
}

func (c *canvas) flash() {
	c.disc(12, 12, 7, color.RGBA{0xff, 0xa0, 0x20, 0xa0})
	c.disc(12, 12, 4.5, color.RGBA{0xff, 0xe0, 0x60, 0xff})
	c.disc(12, 12, 2, color.RGBA{0xff, 0xff, 0xe0, 0xff})
	for k := 0; k < 8; k++ { // rays
		a := float64(k) * math.Pi / 4
		for r := 7.0; r < 11; r++ {
			c.set(int(12+r*math.Cos(a)), int(12+r*math.Sin(a)), color.RGBA{0xff, 0xd0, 0x40, 0xc0})
		}
	}
}

func (c *canvas) spark() {
	for k := 0; k < 12; k++ {
		a := float64(k) * math.Pi / 6
		for r := 2.0; r < 4+float64(hash(k, 0, 9)%6); r++ {
			c.set(int(12+r*math.Cos(a)), int(12+r*math.Sin(a)), color.RGBA{0xff, 0x50, 0x30, 0xe0})
		}
	}
	c.disc(12, 12, 2.5, color.RGBA{0xff, 0xf0, 0xc0, 0xff})
}
