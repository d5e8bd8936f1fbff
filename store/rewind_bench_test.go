package store

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"referee/gen"
	"referee/internal/testutil"
)

// The rewind and branch benchmarks run on a generated run of 10,000 statements and about
// 21,600 changes (gen seed 1, 20 problems). REFEREE_BENCH_RUN names a folder made by
// `referee gen --statements 10000 --problems 20` to skip generating it (about 20 s);
// each benchmark works on its own copy.

var (
	benchRunOnce sync.Once
	benchRunDir  string
	benchRunErr  error
)

func benchRun(b *testing.B) string {
	b.Helper()
	benchRunOnce.Do(func() {
		if dir := os.Getenv("REFEREE_BENCH_RUN"); dir != "" {
			benchRunDir = dir
			return
		}
		tmp, err := os.MkdirTemp("", "referee-bench-run-")
		if err != nil {
			benchRunErr = err
			return
		}
		benchRunDir = filepath.Join(tmp, "contents")
		benchRunErr = gen.Generate(benchRunDir, gen.Config{Statements: 10000, Problems: 20, Seed: 1})
	})
	if benchRunErr != nil {
		b.Fatal(benchRunErr)
	}
	return testutil.Copy(b, benchRunDir)
}

// benchRewind times a rewind to the change at the given fraction of the log (0: the
// first), undoing it between rounds (not timed).
func benchRewind(b *testing.B, at float64) {
	dir := benchRun(b)
	ids := logIDs(b, dir)
	target := ids[int(at*float64(len(ids)-1))]
	b.ResetTimer()
	for b.Loop() {
		r, err := Rewind(dir, target, false, Options{Now: pinned})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		b.ReportMetric(float64(len(r.Removed)+len(r.Created)+len(r.Modified)), "objects")
		if _, err := Undo(dir, r.Change, Options{Now: pinned}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

func BenchmarkRewind10kFirst(b *testing.B)  { benchRewind(b, 0) }
func BenchmarkRewind10kMiddle(b *testing.B) { benchRewind(b, 0.5) }
func BenchmarkRewind10kLate(b *testing.B)   { benchRewind(b, 0.97) }

// BenchmarkBranchSwitch10k times switching between two lines of the 10k run that differ
// in the objects of its last 3% of changes; it reports the branch store's size against
// the object files' size (a second line costs only what differs, plus its manifest).
func BenchmarkBranchSwitch10k(b *testing.B) {
	dir := benchRun(b)
	ids := logIDs(b, dir)
	if _, err := BranchSave(dir, "other", Options{}); err != nil {
		b.Fatal(err)
	}
	objectBytes := dirBytes(b, dir, ProblemDir) + dirBytes(b, dir, StatementDir)
	if _, err := Rewind(dir, ids[int(0.97*float64(len(ids)-1))], false, Options{Now: pinned}); err != nil {
		b.Fatal(err)
	}
	lines := []string{"main", "other"}
	var differ int
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		r, err := BranchSwitch(dir, lines[i%2], false, Options{})
		if err != nil {
			b.Fatal(err)
		}
		differ = len(r.Created) + len(r.Modified) + len(r.Removed)
	}
	b.StopTimer()
	b.ReportMetric(float64(differ), "objects")
	b.ReportMetric(float64(dirBytes(b, dir, BranchDir))/float64(objectBytes), "store/objects")
	b.ReportMetric(float64(objectBytes)/1e6, "objectMB")
}

func dirBytes(b *testing.B, dir, rel string) int64 {
	var n int64
	filepath.WalkDir(filepath.Join(dir, rel), func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}
