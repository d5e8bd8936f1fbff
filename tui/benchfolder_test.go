package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"referee/gen"
)

// benchSeed is the seed of the generated folders the benchmarks read.
const benchSeed = 1

var benchFolders sync.Map // size label → *benchFolderOnce

type benchFolderOnce struct {
	once sync.Once
	dir  string
	err  error
}

// benchFolder returns a generated folder of n statements, cached under os.TempDir() as
// referee-bench-<label>-<seed> (label "10k", "100k") and reused across runs. It is
// generated beside the cache and renamed in place, so an interrupted run never leaves a
// half folder that looks complete. Benchmarks read it only; a benchmark that writes
// copies it first.
func benchFolder(tb testing.TB, n int) string {
	tb.Helper()
	label := fmt.Sprintf("%dk", n/1000)
	v, _ := benchFolders.LoadOrStore(label, &benchFolderOnce{})
	f := v.(*benchFolderOnce)
	f.once.Do(func() {
		cache := filepath.Join(os.TempDir(), fmt.Sprintf("referee-bench-%s-%d", label, benchSeed))
		f.dir = filepath.Join(cache, "contents")
		if _, err := os.Stat(filepath.Join(cache, "done")); err == nil {
			return
		}
		_ = os.RemoveAll(cache)
		tmp, err := os.MkdirTemp(os.TempDir(), fmt.Sprintf("referee-bench-%s-%d-tmp-", label, benchSeed))
		if err != nil {
			f.err = err
			return
		}
		defer os.RemoveAll(tmp)
		cfg := gen.Config{Statements: n, Problems: max(1, n/100), Seed: benchSeed}
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

var benchModels sync.Map // dir → *Model: a 100k folder takes seconds to load

// benchModel opens a folder as `referee bench` does (openForMeasure) at a terminal
// size, once per folder and test binary.
func benchModel(b *testing.B, dir string, w, h int) *Model {
	b.Helper()
	if m, ok := benchModels.Load(dir); ok {
		return m.(*Model)
	}
	m, err := openForMeasure(dir, w, h)
	if err != nil {
		b.Fatal(err)
	}
	benchModels.Store(dir, m)
	return m
}
