package testenv

import (
	"flag"
	"strconv"
)

// Parallel makes n the number of a package's parallel tests that run at
// once, unless -test.parallel was given. Call it from TestMain before
// m.Run, in packages whose tests mostly wait — on processes, Temporal
// timers, step delays, webhook retries — so that more of them than the
// machine has cores (go test's default) keep it busy. Each such test must
// own what it touches (its database schema, task queue, ports, data dir).
func Parallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
