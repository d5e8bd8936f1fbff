package bench

import (
	"os"
	"path/filepath"
	"testing"

	"referee/model"
)

func BenchmarkLean10k(b *testing.B) {
	dir := folder(b, 10_000)
	entries, _ := os.ReadDir(filepath.Join(dir, "statement"))
	var files [][]byte
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(dir, "statement", e.Name()))
		files = append(files, data)
	}
	f := &model.File{}
	for b.Loop() {
		for _, data := range files {
			if _, err := model.StatementLean(data, f); err != nil {
				b.Fatal(err)
			}
		}
	}
}
