package pyjson

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParse compares the parser with the reference it replaced, on the statement
// files of a generated folder (go test ./bench -bench Load1k makes the default one).
func BenchmarkParse(b *testing.B) {
	dir := os.Getenv("REFEREE_BENCH_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "referee-bench-1000-1", "contents")
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "statement", "*.json"))
	if len(paths) == 0 {
		b.Skipf("no generated folder at %s (set REFEREE_BENCH_DIR)", dir)
	}
	var files [][]byte
	var size int64
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += int64(len(data))
	}
	for _, c := range []struct {
		name  string
		parse func([]byte) (Value, error)
	}{{"fast", Parse}, {"reference", refParse}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				for _, data := range files {
					if _, err := c.parse(data); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
