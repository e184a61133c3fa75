package engine

// testHooks holds the switches that only tests set, to force a slow path
// and compare its records with the fast path's. Programs never set them:
// the zero value is how the engine runs.
var testHooks struct {
	// checkEverything makes worldChanges report every slot, so that no
	// check and no re-score is skipped.
	checkEverything bool
}
