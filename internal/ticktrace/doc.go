// Package ticktrace times the sections of World.Tick and its lanes, a
// measuring aid for the benchmark suite (bench/world_trace_test.go). Only
// builds with the tag ticktrace record anything; in others Mark and Lane
// are empty and inline to nothing. The benchmark suite prints the trace
// with:
//
//	go test -tags ticktrace -run TestTickTrace -v ./bench
package ticktrace
