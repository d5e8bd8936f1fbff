//go:build race

package pyjson

// raceEnabled: the race detector makes sync.Pool drop items at random, so allocation
// counts that rely on the pool do not hold under it.
const raceEnabled = true
