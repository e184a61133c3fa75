package bench

import "github.com/moonmind-ai/moonmind/internal/plancases"

// The planning problems live in internal/plancases, which the engine's
// tests share; these names keep the benchmarks' code short.
type PlannerCase = plancases.PlannerCase

// MazeMoves lists the maze's corridors (plancases.MazeMoves).
const MazeMoves = plancases.MazeMoves

var (
	Soldier      = plancases.Soldier
	Deep         = plancases.Deep
	Maze         = plancases.Maze
	Synthetic100 = plancases.Synthetic100
	PlannerCases = plancases.PlannerCases
	Synthetic    = plancases.Synthetic
	MazeFacts    = plancases.MazeFacts
	ScaleCases   = plancases.ScaleCases
)
