package model

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr on first use. Most processes (a skill call, a status) never
// parse an issue, a sentence or a proof's math, and compiling ~25 patterns in package
// init cost every one of them about 0.4 ms at start.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
