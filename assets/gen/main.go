// Command gen draws the demo's sprite sheet (package sprites) and writes
// it to sprites.png in the current folder: go generate ./assets.
package main

import (
	"fmt"
	"image/png"
	"os"

	"github.com/moonmind-ai/moonmind/assets/sprites"
)

func main() {
	f, err := os.Create("sprites.png")
	if err == nil {
		err = png.Encode(f, sprites.Sheet())
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
