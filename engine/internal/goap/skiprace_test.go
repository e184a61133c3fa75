package goap_test

import "testing"

// skipUnderRace skips a test of many searches under the race detector.
// The search runs on one goroutine, so the detector has nothing to find
// in it, and under it these tests take minutes instead of seconds;
// .ci/test runs them without it, in its plain step.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("a test of many searches on one goroutine: run without the race detector (.ci/test's plain step)")
	}
}
