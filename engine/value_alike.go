package engine

// alike reports whether a and b are the same value (==: the same kind and
// content, a number's bits compared as bits), then Equal unless a NaN.
// The planner's duplicate checks use it as the cheap test before Equal.
func alike(a, b *Value) bool { return *a == *b }
