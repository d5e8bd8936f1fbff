package model

import (
	"math/rand/v2"
	"testing"
)

// CheckUpdates is checkUpdates with random edits drawn from a seed, for the external
// tests of this package (graph_incr_gen_test.go).
func CheckUpdates(t testing.TB, s *Snapshot, seed uint64, steps int) (kept int) {
	t.Helper()
	return checkUpdates(t, s, newEditor(rand.New(rand.NewPCG(seed, 9)), nil), steps)
}

// CheckExtrasUpdates is checkExtrasUpdates with random edits drawn from a seed, for the
// external tests of this package (graves_gen_test.go).
func CheckExtrasUpdates(t testing.TB, s *Snapshot, seed uint64, steps int) (keptGraves, keptQueue int) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 19))
	return checkExtrasUpdates(t, s, newEditor(rnd, nil), rnd, steps)
}
