// Package benchfolder gives benchmarks generated contents folders, made once and kept
// under os.TempDir() across runs (a 100k folder takes a while to generate). Only tests
// import it.
package benchfolder

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"referee/gen"
)

// Seed is the seed of the generated folders.
const Seed = 1

var folders sync.Map // size label → *once

type once struct {
	once sync.Once
	dir  string
	err  error
}

// Get returns a generated folder of n statements, cached under os.TempDir() as
// referee-bench-<label>-<seed> (label "10k", "100k") and reused across runs. It is
// generated beside the cache and renamed in place, so an interrupted run never leaves a
// half folder that looks complete. Benchmarks read it only; a benchmark that writes
// copies it first.
func Get(tb testing.TB, n int) string {
	tb.Helper()
	label := fmt.Sprintf("%dk", n/1000)
	v, _ := folders.LoadOrStore(label, &once{})
	f := v.(*once)
	f.once.Do(func() {
		cache := filepath.Join(os.TempDir(), fmt.Sprintf("referee-bench-%s-%d", label, Seed))
		f.dir = filepath.Join(cache, "contents")
		if _, err := os.Stat(filepath.Join(cache, "done")); err == nil {
			return
		}
		_ = os.RemoveAll(cache)
		tmp, err := os.MkdirTemp(os.TempDir(), fmt.Sprintf("referee-bench-%s-%d-tmp-", label, Seed))
		if err != nil {
			f.err = err
			return
		}
		defer os.RemoveAll(tmp)
		cfg := gen.Config{Statements: n, Problems: max(1, n/100), Seed: Seed}
		if err := gen.Generate(filepath.Join(tmp, "contents"), cfg); err != nil {
			f.err = err
			return
		}
		if err := os.WriteFile(filepath.Join(tmp, "done"), nil, 0o644); err != nil {
			f.err = err
			return
		}
		if err := os.Rename(tmp, cache); err != nil {
			if _, err2 := os.Stat(filepath.Join(cache, "done")); err2 != nil {
				f.err = err
			}
		}
	})
	if f.err != nil {
		tb.Fatal(f.err)
	}
	return f.dir
}
