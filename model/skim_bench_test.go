package model

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSkim reads the statements of a generated folder (REFEREE_BENCH_DIR, e.g.
// one `referee gen` made) skimmed, by a Skimmer and by StatementSkim.
func BenchmarkSkim(b *testing.B) {
	benchReaders(b, (*Skimmer).Statement, StatementSkim)
}

// BenchmarkLean reads them lean, by a Skimmer (Lean) and by StatementLean.
func BenchmarkLean(b *testing.B) {
	benchReaders(b, (*Skimmer).Lean, StatementLean)
}

// benchReaders reads REFEREE_BENCH_DIR's statements with a Skimmer's read (a new
// Skimmer each time round, as a load has) and with the parser's.
func benchReaders(b *testing.B, read func(*Skimmer, []byte, *File) (*Statement, error), parse func([]byte, *File) (*Statement, error)) {
	dir := os.Getenv("REFEREE_BENCH_DIR")
	paths, _ := filepath.Glob(filepath.Join(dir, "statement", "s-a*.json"))
	if dir == "" || len(paths) == 0 {
		b.Skip("no generated folder (set REFEREE_BENCH_DIR)")
	}
	var files [][]byte
	var size int64
	for _, p := range paths[:min(len(paths), 3000)] {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += int64(len(data))
	}
	file := &File{}
	b.Run("Skimmer", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			k := &Skimmer{}
			for _, data := range files {
				if _, err := read(k, data, file); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("parser", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, data := range files {
				if _, err := parse(data, file); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
