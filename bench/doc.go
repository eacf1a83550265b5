// Package bench owns grove's benchmarks: the drivers under bench/cmd that time
// grove against the git program and the reference filesystem server end to
// end (bench/git.sh, bench/fs.sh, bench/watch.sh), the results they recorded
// (RESULTS.md, GIT-RESULTS.md, FINDINGS.md), and in-process Go benchmarks of
// the server for profiling:
//
//	go test ./bench -run '^$' -bench ReadFile -cpuprofile /tmp/cpu.prof
package bench
