package bench

// Go benchmarks of the same work `referee-bench` tables, for profiling:
//
//	go test ./bench -run '^$' -bench Load10k -cpuprofile cpu.out
//	go tool pprof -top bench.test cpu.out
//
// The folders are generated once and cached under os.TempDir() (see Folder). The 100k
// benchmarks are opt-in (REFEREE_BENCH_100K=1): generating that folder takes a while and
// about 3 GB of disk, its backups included. REFEREE_BENCH_BINARY=path runs the process
// benchmarks on a given binary instead of building one.

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"referee/model"
	"referee/model/pyjson"
)

const seed = 1

func TestMain(m *testing.M) {
	code := m.Run()
	if binaryPath != "" {
		os.RemoveAll(filepath.Dir(binaryPath))
	}
	os.Exit(code)
}

func folder(b *testing.B, n int) string {
	b.Helper()
	if n >= 100_000 && os.Getenv("REFEREE_BENCH_100K") == "" {
		b.Skip("set REFEREE_BENCH_100K=1 to run the 100k benchmarks")
	}
	dir, err := Folder(n, seed)
	if err != nil {
		b.Fatal(err)
	}
	return dir
}

func benchLoad(b *testing.B, n int) {
	dir := folder(b, n)
	freshLoop(b, func() {
		if _, _, err := LoadDerive(dir); err != nil {
			b.Fatal(err)
		}
	})
}

// freshLoop times work with the heap a new process starts with: the garbage of the run
// before is collected first, off the clock (as the table's fresh runs do). It adds the
// CPU time of the work alone per op.
func freshLoop(b *testing.B, work func()) {
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		b.StartTimer()
		start := cpuTime()
		work()
		cpu += cpuTime() - start
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// reportCPU adds the process's CPU time per op (user and system, all threads): on a
// shared machine it moves less than wall time when others compete for the cores.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op") }
}

func BenchmarkLoad1k(b *testing.B)   { benchLoad(b, 1_000) }
func BenchmarkLoad10k(b *testing.B)  { benchLoad(b, 10_000) }
func BenchmarkLoad100k(b *testing.B) { benchLoad(b, 100_000) }

func BenchmarkReadFloor10k(b *testing.B) {
	dir := folder(b, 10_000)
	var n int64
	freshLoop(b, func() {
		var err error
		if n, err = ReadFloor(dir); err != nil {
			b.Fatal(err)
		}
	})
	b.SetBytes(n)
}

// BenchmarkReload10k is the workbench's work for one agent's write, without the UI:
// the changed file read again (store.Reload) and the graph updated (Graph.Update).
func BenchmarkReload10k(b *testing.B) {
	r, err := NewReloadCase(folder(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	for b.Loop() {
		b.StopTimer()
		if err := r.Change(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, _, err := r.Reload(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchMemory reports the live heap a loaded and derived folder holds.
func benchMemory(b *testing.B, n int) {
	dir := folder(b, n)
	var perStatement float64
	for b.Loop() {
		heap, err := HeapAfterLoad(dir)
		if err != nil {
			b.Fatal(err)
		}
		perStatement = float64(heap) / float64(n)
	}
	b.ReportMetric(perStatement, "B/statement")
}

func BenchmarkMemory10k(b *testing.B)  { benchMemory(b, 10_000) }
func BenchmarkMemory100k(b *testing.B) { benchMemory(b, 100_000) }

func BenchmarkSkillInProcess(b *testing.B) {
	l, err := NewSkillLoop(folder(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	for b.Loop() {
		if err := l.InProcess(); err != nil {
			b.Fatal(err)
		}
	}
}

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// referee builds the binary once for the process benchmarks, unless
// REFEREE_BENCH_BINARY names one (to compare builds, e.g. one without the UI).
func referee(b *testing.B) string {
	if bin := os.Getenv("REFEREE_BENCH_BINARY"); bin != "" {
		return bin
	}
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "referee-bench-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "referee")
		out, err := exec.Command("go", "build", "-o", binaryPath, "referee/cmd/referee").CombinedOutput()
		if err != nil {
			binaryErr = &buildError{err, string(out)}
		}
	})
	if binaryErr != nil {
		b.Fatal(binaryErr)
	}
	return binaryPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

func BenchmarkSkillProcess(b *testing.B) {
	bin := referee(b)
	l, err := NewSkillLoop(folder(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	for b.Loop() {
		if out, err := l.Command(bin).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}

// The model's share of a load, without the files: parse and type every object.
func BenchmarkParse10k(b *testing.B) {
	dir := folder(b, 10_000)
	entries, err := os.ReadDir(filepath.Join(dir, "statement"))
	if err != nil {
		b.Fatal(err)
	}
	var files [][]byte
	var size int64
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, "statement", e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += int64(len(data))
	}
	b.SetBytes(size)
	defer reportCPU(b)()
	for b.Loop() {
		for _, data := range files {
			doc, err := pyjson.Parse(data)
			if err != nil {
				b.Fatal(err)
			}
			model.StatementFrom(doc)
		}
	}
	runtime.KeepAlive(files)
}

// The derivations alone, on a loaded folder.
func BenchmarkDerive10k(b *testing.B) {
	snap, _, err := LoadDerive(folder(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	defer reportCPU(b)()
	for b.Loop() {
		model.Derive(snap)
	}
}
