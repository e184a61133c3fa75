//go:build race

package main

// raceEnabled: the race detector makes the memory bombs of the hostile
// corpus ten times slower; their run is left to the plain test run.
const raceEnabled = true
