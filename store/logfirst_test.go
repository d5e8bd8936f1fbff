package store

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
)

// A first frame's load holds, of the log, the entry LoadTail's log ends with (its Line
// not counted) and lists the log as broken where LoadTail does; WithLogTail then holds
// what LoadTail holds. The log's ends: as the demo run left it, a line being written,
// white space after the last line, blank lines, CRLF, a last line longer than the
// piece read back first and longer than a log line may be, a single line without a
// newline, an empty log, none, a log that is a folder, history/ a link.
func TestLoadFirstThenHoldsTheLastChange(t *testing.T) {
	long := `{"l-900": {"creation": ["s-001"], "modification": []}, "note": "` + strings.Repeat("x", 200<<10) + `"}`
	ends := map[string]func(t *testing.T, dir string){
		"as it is":             func(*testing.T, string) {},
		"a line being written": func(t *testing.T, dir string) { appendTo(t, dir, `{"l-900": {"creation": [`) },
		"white space after":    func(t *testing.T, dir string) { appendTo(t, dir, "  \t") },
		"blank lines after":    func(t *testing.T, dir string) { appendTo(t, dir, "\n\n   \n\n") },
		"crlf": func(t *testing.T, dir string) {
			appendTo(t, dir, `{"l-900": {"creation": [], "modification": []}}`+"\r\n")
		},
		"a long last line": func(t *testing.T, dir string) { appendTo(t, dir, long+"\n\n") },
		"a line too long": func(t *testing.T, dir string) {
			appendTo(t, dir, `{"l-901": "`+strings.Repeat("y", MaxLogLine)+`"}`+"\n")
		},
		"a bad last line": func(t *testing.T, dir string) { appendTo(t, dir, "not json\n") },
		"one line": func(t *testing.T, dir string) {
			write(t, dir, LogFile, `{"l-001": {"creation": ["s-001"], "modification": []}}`)
		},
		"only blank lines": func(t *testing.T, dir string) { write(t, dir, LogFile, "\n \n\n") },
		"empty":            func(t *testing.T, dir string) { write(t, dir, LogFile, "") },
		"none": func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, LogFile)); err != nil {
				t.Fatal(err)
			}
		},
		"a folder": func(t *testing.T, dir string) {
			p := filepath.Join(dir, LogFile)
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(p, 0o755); err != nil {
				t.Fatal(err)
			}
		},
		"history a link": func(t *testing.T, dir string) {
			h := filepath.Join(dir, HistoryDir)
			if err := os.Rename(h, h+".real"); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(h+".real", h); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, end := range ends {
		t.Run(name, func(t *testing.T) {
			dir := testutil.Copy(t, demoDir)
			end(t, dir)
			want, err := LoadTail(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			derived := false
			first, err := LoadFirstThen(dir, nil, nil, func(*model.Snapshot) { derived = true })
			if err != nil || !derived {
				t.Fatalf("LoadFirstThen: %v, then called: %v", err, derived)
			}
			var last []model.LogEntry
			if n := len(want.Log); n > 0 {
				e := want.Log[n-1]
				e.Line = 0
				last = []model.LogEntry{e}
			}
			if !reflect.DeepEqual(first.Log, last) {
				t.Errorf("the first snapshot's log:\n%+v\nwant\n%+v", first.Log, last)
			}
			if !reflect.DeepEqual(first.Broken, want.Broken) || !reflect.DeepEqual(first.Config, want.Config) {
				t.Errorf("broken %+v config %+v, want %+v %+v", first.Broken, first.Config, want.Broken, want.Config)
			}
			whole := WithLogTail(dir, first)
			if !reflect.DeepEqual(whole.Log, want.Log) || whole.LogHead != want.LogHead || !reflect.DeepEqual(whole.Broken, want.Broken) {
				t.Errorf("with the tail: %d entries, head %+v, broken %+v; want %d, %+v, %+v",
					len(whole.Log), whole.LogHead, whole.Broken, len(want.Log), want.LogHead, want.Broken)
			}
			if len(first.Log) > 1 || whole.Statements.Len() != first.Statements.Len() {
				t.Error("the first snapshot changed")
			}
		})
	}
}

// A first snapshot's window of the log, a few lines: its tail is the window's.
func TestWithLogTailReadsTheWindow(t *testing.T) {
	dir := testutil.Copy(t, demoDir)
	restore := SetLogWindow(3, 1<<20)
	defer restore()
	want, err := LoadTail(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, err := LoadFirstThen(dir, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := WithLogTail(dir, first)
	if len(want.Log) != 3 || !reflect.DeepEqual(whole.Log, want.Log) || whole.LogHead != want.LogHead || whole.LogHead.Lines == 0 {
		t.Fatalf("with the tail: %+v head %+v; want %+v head %+v", whole.Log, whole.LogHead, want.Log, want.LogHead)
	}
	// Read on from: a line appended is read as LoadTail's snapshot reads it.
	appendTo(t, dir, `{"l-900": {"creation": [], "modification": []}}`+"\n")
	a, b := Reload(dir, whole, []string{LogFile}), Reload(dir, want, []string{LogFile})
	if !reflect.DeepEqual(a.Log, b.Log) || a.LogHead != b.LogHead {
		t.Fatalf("reloaded: %+v head %+v; want %+v head %+v", a.Log, a.LogHead, b.Log, b.LogHead)
	}
}

func appendTo(t *testing.T, dir, s string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
