//go:build !linux

package store

import "os"

// readNoFollowFast is only on Linux; elsewhere readNoFollow reads through os.File.
func readNoFollowFast(string, int64) ([]byte, error, bool) { return nil, nil, false }

// readFolder lists the folder at path, sub inside the contents folder, as os.ReadDir does
// (see the Linux one).
func readFolder(path, sub string) ([]listed, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]listed, len(entries))
	for i, e := range entries {
		out[i] = listed{name: e.Name(), path: sub + "/" + e.Name(), regular: e.Type().IsRegular()}
	}
	return out, nil
}
