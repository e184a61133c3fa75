//go:build race

package goap_test

// raceEnabled: the race detector is on (see skipUnderRace).
const raceEnabled = true
