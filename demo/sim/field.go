package sim

import (
	"container/heap"
	"fmt"
	"math"
	"strings"
)

// TileSize is the side of one map tile, in pixels.
const TileSize = 24

// Tile is what stands on one square of the map.
type Tile uint8

// The kinds of tile (see assets.Legend for their characters).
const (
	Open     Tile = iota // open ground
	WallTile             // blocks walking, sight and rounds
	LowCover             // sandbags: block walking, not sight
)

// Point is a position on the field, in pixels.
type Point struct{ X, Y float64 }

// Field is the battlefield's tile map: its tiles, row by row, and the
// places the map marks. Positions are in pixels; tile (c, r) covers
// [c*TileSize, (c+1)*TileSize) x [r*TileSize, (r+1)*TileSize). A Field is
// read-only once parsed and safe for concurrent reads.
type Field struct {
	Cols, Rows int
	Tiles      []Tile     // Cols*Rows, row by row
	Crates     []Point    // tile centres, in map order (left to right, top to bottom)
	Rallies    [2]Point   // by team
	Spawns     [2][]Point // by team, in map order
	CoverSpots [2][]Point // by team, in map order
	// CoverOf holds, for each cover spot, the centre of the low cover
	// beside it (the side facing the enemy first).
	CoverOf [2][]Point
}

// ParseField reads a tile map (see assets.Legend): rows of equal length,
// one character a tile. The error names the row and column of a character
// it does not know, a ragged row, or a missing rally point.
func ParseField(text string) (*Field, error) {
	rows := strings.Split(strings.TrimRight(text, "\n"), "\n")
	f := &Field{Rows: len(rows), Cols: len(rows[0])}
	rallies := [2]bool{}
	for r, line := range rows {
		if len(line) != f.Cols {
			return nil, fmt.Errorf("sim: map row %d has %d tiles, want %d like row 1", r+1, len(line), f.Cols)
		}
		for c, ch := range line {
			t, p := Open, f.Centre(c, r)
			switch ch {
			case '.':
			case '#':
				t = WallTile
			case '=':
				t = LowCover
			case 'a':
				f.Crates = append(f.Crates, p)
			case 'B', 'R':
				team := map[rune]int{'B': 0, 'R': 1}[ch]
				f.Rallies[team], rallies[team] = p, true
			case 'b':
				f.Spawns[0] = append(f.Spawns[0], p)
			case 'r':
				f.Spawns[1] = append(f.Spawns[1], p)
			case '1':
				f.CoverSpots[0] = append(f.CoverSpots[0], p)
			case '2':
				f.CoverSpots[1] = append(f.CoverSpots[1], p)
			default:
				return nil, fmt.Errorf("sim: map row %d column %d: unknown tile %q", r+1, c+1, ch)
			}
			f.Tiles = append(f.Tiles, t)
		}
	}
	for team, ok := range rallies {
		if !ok {
			return nil, fmt.Errorf("sim: map has no rally point for %s (%q)", TeamName(team), "BR"[team])
		}
	}
	for team := range 2 {
		ahead := 1 // blue faces right (east), red left
		if team == 1 {
			ahead = -1
		}
		for _, p := range f.CoverSpots[team] {
			c, r := f.TileAt(p.X, p.Y)
			cover := p
			for _, d := range [][2]int{{ahead, 0}, {0, -1}, {0, 1}, {-ahead, 0}} {
				if f.At(c+d[0], r+d[1]) == LowCover {
					cover = f.Centre(c+d[0], r+d[1])
					break
				}
			}
			f.CoverOf[team] = append(f.CoverOf[team], cover)
		}
	}
	return f, nil
}

// Width and Height return the field's size in pixels.
func (f *Field) Width() float64  { return float64(f.Cols * TileSize) }
func (f *Field) Height() float64 { return float64(f.Rows * TileSize) }

// Centre returns the centre of tile (c, r), in pixels.
func (f *Field) Centre(c, r int) Point {
	return Point{(float64(c) + 0.5) * TileSize, (float64(r) + 0.5) * TileSize}
}

// TileAt returns the column and row of the tile under (x, y) pixels.
func (f *Field) TileAt(x, y float64) (int, int) {
	return int(math.Floor(x / TileSize)), int(math.Floor(y / TileSize))
}

// At returns the tile at column c, row r; outside the map, a wall.
func (f *Field) At(c, r int) Tile {
	if c < 0 || r < 0 || c >= f.Cols || r >= f.Rows {
		return WallTile
	}
	return f.Tiles[r*f.Cols+c]
}

// Walkable reports whether a soldier may stand at (x, y) pixels: on a
// tile that is neither wall nor low cover.
func (f *Field) Walkable(x, y float64) bool {
	c, r := f.TileAt(x, y)
	return f.At(c, r) == Open
}

// Sight reports whether a line from a to b crosses no wall tile (low cover
// does not block sight). It walks every tile the segment touches.
func (f *Field) Sight(a, b Point) bool {
	_, ok := f.trace(a, b, WallTile)
	return ok
}

// FirstWall returns where the segment from a to b first enters a wall
// tile, and false; or b and true when it reaches b without meeting one.
func (f *Field) FirstWall(a, b Point) (Point, bool) { return f.trace(a, b, WallTile) }

// trace walks the tiles the segment a-b crosses, in order (Amanatides and
// Woo's grid traversal), and stops at the first of kind stop.
func (f *Field) trace(a, b Point, stop Tile) (Point, bool) {
	c, r := f.TileAt(a.X, a.Y)
	ec, er := f.TileAt(b.X, b.Y)
	dx, dy := b.X-a.X, b.Y-a.Y
	stepC, stepR := 1, 1
	if dx < 0 {
		stepC = -1
	}
	if dy < 0 {
		stepR = -1
	}
	// t at which the segment crosses the next vertical / horizontal grid line.
	next := func(pos, d float64, cell, step int) (float64, float64) {
		if d == 0 {
			return math.Inf(1), math.Inf(1)
		}
		edge := float64(cell) * TileSize
		if step > 0 {
			edge += TileSize
		}
		return (edge - pos) / d, TileSize / math.Abs(d)
	}
	tMaxC, tDeltaC := next(a.X, dx, c, stepC)
	tMaxR, tDeltaR := next(a.Y, dy, r, stepR)
	t := 0.0
	for n := 0; n < 4*(f.Cols+f.Rows); n++ {
		if f.At(c, r) == stop {
			return Point{a.X + dx*t, a.Y + dy*t}, false
		}
		if c == ec && r == er {
			return b, true
		}
		if tMaxC < tMaxR {
			t, tMaxC, c = tMaxC, tMaxC+tDeltaC, c+stepC
		} else {
			t, tMaxR, r = tMaxR, tMaxR+tDeltaR, r+stepR
		}
		if t > 1 {
			return b, true
		}
	}
	return b, true
}

// NearestOpen returns the centre of the open tile nearest (x, y) (by
// rings of tiles, the first in row order on a tie), or (x, y) itself when
// it is walkable.
func (f *Field) NearestOpen(x, y float64) Point {
	if f.Walkable(x, y) {
		return Point{x, y}
	}
	c0, r0 := f.TileAt(x, y)
	for ring := 1; ring < f.Cols+f.Rows; ring++ {
		best, bd := Point{}, math.Inf(1)
		for r := r0 - ring; r <= r0+ring; r++ {
			for c := c0 - ring; c <= c0+ring; c++ {
				if f.At(c, r) != Open {
					continue
				}
				p := f.Centre(c, r)
				if d := dist(x, y, p.X, p.Y); d < bd {
					best, bd = p, d
				}
			}
		}
		if !math.IsInf(bd, 1) {
			return best
		}
	}
	return Point{x, y}
}

// Path returns waypoints from a to b around walls and low cover: an A*
// search over the tiles (eight neighbours, no corner cutting, octile
// distance), smoothed where a straight walk stays clear of blocked tiles
// by a margin. The last waypoint is b, or the nearest open tile's centre
// when b is not walkable; a is not included. It returns nil when a and b
// are not connected. Every point on the returned polyline is walkable.
func (f *Field) Path(a, b Point) []Point {
	b = f.NearestOpen(b.X, b.Y)
	sc, sr := f.TileAt(a.X, a.Y)
	gc, gr := f.TileAt(b.X, b.Y)
	if sc == gc && sr == gr {
		return []Point{b}
	}
	n := f.Cols * f.Rows
	start, goal := sr*f.Cols+sc, gr*f.Cols+gc
	g := make([]float64, n)
	from := make([]int32, n)
	closed := make([]bool, n)
	for i := range g {
		g[i], from[i] = math.Inf(1), -1
	}
	h := func(i int) float64 {
		dc, dr := math.Abs(float64(i%f.Cols-gc)), math.Abs(float64(i/f.Cols-gr))
		return math.Max(dc, dr) + (math.Sqrt2-1)*math.Min(dc, dr)
	}
	open := &nodeHeap{}
	g[start] = 0
	heap.Push(open, node{start, h(start), 0})
	found := false
	for open.Len() > 0 {
		cur := heap.Pop(open).(node)
		if closed[cur.i] {
			continue
		}
		if cur.i == goal {
			found = true
			break
		}
		closed[cur.i] = true
		cc, cr := cur.i%f.Cols, cur.i/f.Cols
		for _, d := range neighbours {
			nc, nr := cc+d[0], cr+d[1]
			if f.At(nc, nr) != Open {
				continue
			}
			step := 1.0
			if d[0] != 0 && d[1] != 0 {
				if f.At(cc+d[0], cr) != Open || f.At(cc, cr+d[1]) != Open {
					continue // no cutting corners
				}
				step = math.Sqrt2
			}
			ni := nr*f.Cols + nc
			if ng := g[cur.i] + step; ng < g[ni] {
				g[ni], from[ni] = ng, int32(cur.i)
				heap.Push(open, node{ni, ng + h(ni), open.seq()})
			}
		}
	}
	if !found {
		return nil
	}
	var tiles []Point
	for i := goal; i != start; i = int(from[i]) {
		tiles = append(tiles, f.Centre(i%f.Cols, i/f.Cols))
	}
	for i, j := 0, len(tiles)-1; i < j; i, j = i+1, j-1 {
		tiles[i], tiles[j] = tiles[j], tiles[i]
	}
	tiles[len(tiles)-1] = b
	// Smooth: from each kept point, skip ahead to the farthest waypoint
	// in a clear straight line.
	out := make([]Point, 0, len(tiles))
	at := a
	for k := 0; k < len(tiles); {
		far := k
		for j := len(tiles) - 1; j > k; j-- {
			if f.clearWalk(at, tiles[j]) {
				far = j
				break
			}
		}
		out = append(out, tiles[far])
		at = tiles[far]
		k = far + 1
	}
	return out
}

// walkMargin is how far, in pixels, a smoothed walk keeps from blocked
// tiles.
const walkMargin = 7

// clearWalk reports whether every point of the segment a-b, and points
// walkMargin pixels to either side, are walkable (sampled every 3 pixels).
func (f *Field) clearWalk(a, b Point) bool {
	d := dist(a.X, a.Y, b.X, b.Y)
	steps := int(d/3) + 1
	for i := 0; i <= steps; i++ {
		t := float64(i) / float64(steps)
		x, y := a.X+(b.X-a.X)*t, a.Y+(b.Y-a.Y)*t
		for _, o := range [][2]float64{{0, 0}, {walkMargin, 0}, {-walkMargin, 0}, {0, walkMargin}, {0, -walkMargin}} {
			if !f.Walkable(x+o[0], y+o[1]) {
				return false
			}
		}
	}
	return true
}

var neighbours = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}

// node is an open tile in the A* search; seq breaks ties in push order,
// so paths are deterministic.
type node struct {
	i   int
	f   float64
	ord int
}

type nodeHeap struct {
	nodes []node
	n     int
}

func (h *nodeHeap) seq() int { h.n++; return h.n }
func (h *nodeHeap) Len() int { return len(h.nodes) }
func (h *nodeHeap) Less(i, j int) bool {
	a, b := h.nodes[i], h.nodes[j]
	if a.f != b.f {
		return a.f < b.f
	}
	return a.ord < b.ord
}
func (h *nodeHeap) Swap(i, j int) { h.nodes[i], h.nodes[j] = h.nodes[j], h.nodes[i] }
func (h *nodeHeap) Push(x any)    { h.nodes = append(h.nodes, x.(node)) }
func (h *nodeHeap) Pop() any {
	x := h.nodes[len(h.nodes)-1]
	h.nodes = h.nodes[:len(h.nodes)-1]
	return x
}
