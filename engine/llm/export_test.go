package llm

// Helpers of the internal tests that the external tests (package llm_test,
// which go through the real SDK) share.
var (
	SoldierForTest    = soldier
	ThreeStepsForTest = threeSteps
)
