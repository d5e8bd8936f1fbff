package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/store"
)

// log --follow holds the log's tail only: the lines before it are printed a window at a
// time (store.EachChangeBefore), and lines appended faster than the tail keeps them are
// read back. What it prints is what the whole log lists, change for change, in text
// and in JSON, with or without a filter.
func TestLogFollowTailAsWhole(t *testing.T) {
	t.Cleanup(store.SetLogWindow(5, 1<<20))
	for _, tc := range []struct {
		output string
		filter logFilter
	}{
		{"text", logFilter{}},
		{"json", logFilter{}},
		{"text", logFilter{object: "s-004"}},
		{"text", logFilter{actor: "agent-check"}},
	} {
		t.Run(fmt.Sprintf("%s %+v", tc.output, tc.filter), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "contents")
			testutil.CopyTree(t, testutil.DemoDir(), dir)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errOut syncBuffer
			done := make(chan error, 1)
			go func() { done <- (&app{stdout: &out, stderr: &errOut}).followLog(ctx, dir, tc.filter, tc.output) }()
			mark := "l-038"
			if tc.filter.object != "" || tc.filter.actor != "" {
				mark = "l-007"
			}
			waitFor(t, &out, mark)
			// Twenty changes in one write: more than twice the tail, so the reload lets
			// go of lines not yet printed, and follow reads them back.
			var lines strings.Builder
			for i := 39; i < 59; i++ {
				fmt.Fprintf(&lines, `{"l-%03d": {"creation": [], "modification": []}, "by": "agent-check"}`+"\n", i)
			}
			f, err := os.OpenFile(filepath.Join(dir, "history", "log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(lines.String())
			f.Close()
			if tc.filter.object == "" {
				waitFor(t, &out, "l-058")
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			snap, err := store.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			for _, c := range store.NewHistory(dir, snap).Activity() {
				if !tc.filter.keep(c) {
					continue
				}
				if tc.output == "json" {
					line, _ := json.Marshal(c)
					want.WriteString(string(line) + "\n")
				} else {
					want.WriteString(changeLine(c) + "\n")
				}
			}
			if out.String() != want.String() || errOut.String() != "" {
				t.Errorf("followed:\n%s\nwant:\n%s\nstderr: %q", out.String(), want.String(), errOut.String())
			}
		})
	}
}
