// Command mutants runs mutation testing over one package with mutant
// schemata: the mutants of gremlins (github.com/go-gremlins/gremlins) are
// all compiled into one test binary, so the package builds once instead of
// once per mutant.
//
// A mutant is one small change of the code, an operator replaced by
// another (< by <=, == by !=, + by -, ++ by --, a sign dropped); the tests
// should notice it. Building a package once per mutant costs seconds each,
// and a package has hundreds of mutants. A schema is the package rewritten
// so that every mutated operator becomes a choice on the mutant's number:
//
//	a < b    becomes  func() bool { if mutantOn(7) { return (a) <= (b) }; return (a) < (b) }()
//	n++      becomes  func() { if mutantOn(9) { n--; return }; n++ }()
//
// and a file of its own reads the number from the environment variable
// MUTANT. With MUTANT unset the schema behaves as the original, which a
// first run of the tests checks; with MUTANT=7 it is mutant 7. The
// rewritten files go to go test through -overlay, so the tree itself is
// never changed.
//
// For one package the command
//
//  1. lists the mutants with gremlins' dry run (the same kinds and
//     positions gremlins tests), in the files chosen with -files;
//  2. builds the package's tests with coverage and runs each test alone,
//     to learn which tests reach which lines and how long each takes;
//  3. writes the schema, builds it once and runs every test on it with no
//     mutant, which must pass;
//  4. runs each mutant with only the tests that reach its line, the fast
//     ones first, stopping at the first failure (a case condition, which
//     no coverage block holds, takes the tests that reach its switch); a
//     mutant no test reaches is NOT COVERED; a mutant inside a constant expression (or whose type
//     the file cannot name) cannot be a choice made at run time, so it is
//     built alone, with only its own file changed;
//  5. writes a report: one line per mutant (position, kind, result, the
//     test that killed it, seconds) and gremlins' summary counts, as text
//     and JSON.
//
// Usage, from the root of the module:
//
//	go run ./internal/mutants -pkg engine/curve -gremlins "$(command -v gremlins)"
//
// To check one mutant by hand, for instance against a test just written,
// build the schema and keep it, then turn the mutant on by its number in
// the kept list:
//
//	go run ./internal/mutants -pkg luabind -files sandbox_memory.go -goflags -short -keep /tmp/kept -build-only
//	cd luabind && MUTANT=7 /tmp/kept/schema.test -test.short -test.run '^TestX$'
//
// .ci/mutation-schema wraps it, installing gremlins and working on a copy
// of the tree.
package main
