// Package bench holds the benchmarks that guard moonmind's latency budgets
// (see README.md) and the reference computations they are compared with.
// Run them with
//
//	go test -run '^$' -bench . -benchmem ./bench/
package bench
