package store

import "testing"

// A worker's slab of statement files starts small and doubles up to fileChunk: a reload
// reads a file or two, and a slab of fileChunk files for each would be most of what it
// allocates. Every file keeps its own path and version, and reads itself again.
func TestReadWorkerFilesStartSmall(t *testing.T) {
	w := &readWorker{}
	f := w.file(t.TempDir(), "statement/s-001.json", "v1")
	if cap(w.files) != 4 {
		t.Fatalf("after one file the slab holds %d files, want 4", cap(w.files))
	}
	var caps []int
	for i := range 2 * fileChunk {
		w.file("d", "statement/s-002.json", string(rune('a'+i%26)))
		if len(caps) == 0 || caps[len(caps)-1] != cap(w.files) {
			caps = append(caps, cap(w.files))
		}
	}
	want := []int{4, 8, 16, 32, 64, 128, 256}
	if len(caps) != len(want) {
		t.Fatalf("slab sizes %v, want %v", caps, want)
	}
	for i := range want {
		if caps[i] != want[i] {
			t.Fatalf("slab sizes %v, want %v", caps, want)
		}
	}
	if f.Path != "statement/s-001.json" || f.Version != "v1" {
		t.Fatalf("the first file reads %q at %q after others were made", f.Path, f.Version)
	}
	if _, err := f.Read(); err == nil {
		t.Fatal("reading a file that is not there again gave no error")
	}
}
