package store

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
)

// smallWindow sets the log window for one test.
func smallWindow(t *testing.T, lines int, bytes int64) {
	t.Helper()
	t.Cleanup(SetLogWindow(lines, bytes))
}

// checkTail says whether snap's log is a tail of the log file as a whole read has it:
// its entries the last ones, alike (line numbers and offsets too), and its head the
// lines and changes before them.
func checkTail(t *testing.T, dir string, snap *model.Snapshot) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(LogFile)))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	all := ParseLog(string(data))
	held := len(snap.Log)
	if held > len(all) {
		t.Fatalf("holds %d entries of %d", held, len(all))
	}
	skipped := len(all) - held
	for i, e := range snap.Log {
		if w := all[skipped+i]; !reflect.DeepEqual(e, w) {
			t.Fatalf("entry %d is %+v, want %+v", i, e, w)
		}
	}
	head := snap.LogHead
	wantHead := model.LogHead{}
	if skipped > 0 || head.Offset > 0 {
		first := int64(len(data))
		if held > 0 {
			first = snap.Log[0].Off
		}
		wantHead = model.LogHead{Lines: strings.Count(string(data[:head.Offset]), "\n"), Changes: skipped, Offset: head.Offset}
		if held > 0 && (head.Offset > first || strings.TrimSpace(string(data[head.Offset:first])) != "") {
			t.Fatalf("the head ends at %d, the first entry held starts at %d", head.Offset, first)
		}
		if head.Offset > 0 && data[head.Offset-1] != '\n' {
			t.Fatalf("the head ends at %d, inside a line", head.Offset)
		}
		if held > 0 && snap.Log[0].Line != head.Lines+1+strings.Count(string(data[head.Offset:first]), "\n") {
			t.Fatalf("the first entry held is line %d after a head of %d lines", snap.Log[0].Line, head.Lines)
		}
	}
	if head != wantHead {
		t.Fatalf("head %+v, want %+v", head, wantHead)
	}
	if snap.LogChanges() != len(all) {
		t.Fatalf("%d changes, want %d", snap.LogChanges(), len(all))
	}
}

// LoadTail holds the last lines of a longer log, with exact line numbers and a head
// that counts the rest; reloads append and let the oldest go; a log cut short or
// replaced is read afresh, its tail only.
func TestLoadTailHoldsTheWindow(t *testing.T) {
	smallWindow(t, 3, 1<<20)
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "history"), 0o755)
	appendLog(t, dir, logLine(1)+"\n\n"+logLine(2)+"\n  \n"+logLine(3)+"\n"+logLine(4)+"\n\n"+logLine(5)+"\n")
	snap, err := LoadTail(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Three lines: "", l-004 is line 6 (lines 2 and 4 blank), "" then l-005 on 8.
	if got := snapLogIDs(snap); got != "6:l-004 8:l-005" {
		t.Fatalf("holds %q", got)
	}
	if snap.LogHead.Lines != 5 || snap.LogHead.Changes != 3 {
		t.Fatalf("head %+v", snap.LogHead)
	}
	checkTail(t, dir, snap)
	whole, err := Load(dir)
	if err != nil || len(whole.Log) != 5 || whole.LogHead != (model.LogHead{}) {
		t.Fatalf("Load holds %d lines, head %+v (%v)", len(whole.Log), whole.LogHead, err)
	}
	reload := func(want string) {
		t.Helper()
		next := Reload(dir, snap, []string{LogFile})
		if got := snapLogIDs(next); got != want {
			t.Fatalf("reloaded %q, want %q", got, want)
		}
		checkTail(t, dir, next)
		snap = next
	}
	appendLog(t, dir, logLine(6)+"\n"+logLine(7)+"\n")
	reload("6:l-004 8:l-005 9:l-006 10:l-007")
	appendLog(t, dir, logLine(8)+"\n"+logLine(9)+"\n"+logLine(10)+"\n")
	reload("11:l-008 12:l-009 13:l-010") // past twice the window: the oldest let go
	if snap.LogHead.Changes != 7 || snap.LogHead.Lines != 10 {
		t.Fatalf("head %+v", snap.LogHead)
	}
	appendLog(t, dir, logLine(11)[:30])
	reload("11:l-008 12:l-009 13:l-010 14:") // a line being written
	appendLog(t, dir, logLine(11)[30:]+"\n")
	reload("11:l-008 12:l-009 13:l-010 14:l-011")
	// Cut short: read afresh, the tail only.
	os.WriteFile(filepath.Join(dir, LogFile), []byte(logLine(20)+"\n"+logLine(21)+"\n"+logLine(22)+"\n"+logLine(23)+"\n"), 0o644)
	reload("2:l-021 3:l-022 4:l-023")
	// Replaced by another file, as short as the window: all of it.
	tmp := filepath.Join(dir, "history", "new")
	os.WriteFile(tmp, []byte(logLine(30)+"\n"), 0o644)
	os.Rename(tmp, filepath.Join(dir, LogFile))
	reload("1:l-030")
	if snap.LogHead != (model.LogHead{}) {
		t.Fatalf("head %+v", snap.LogHead)
	}
	// Gone, then back and long: still only the tail.
	os.Remove(filepath.Join(dir, LogFile))
	reload("")
	appendLog(t, dir, logLine(40)+"\n"+logLine(41)+"\n"+logLine(42)+"\n"+logLine(43)+"\n"+logLine(44)+"\n")
	reload("3:l-042 4:l-043 5:l-044")
}

// The window is bounded in bytes too; a last line longer than the window is held, and
// one longer than the window still being written is listed as a line being written.
func TestLoadTailByteWindow(t *testing.T) {
	line := len(logLine(1)) + 1
	smallWindow(t, 100, int64(2*line+10))
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "history"), 0o755)
	for i := 1; i <= 6; i++ {
		appendLog(t, dir, logLine(i)+"\n")
	}
	snap, err := LoadTail(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := snapLogIDs(snap); got != "5:l-005 6:l-006" {
		t.Fatalf("holds %q", got)
	}
	checkTail(t, dir, snap)
	long := `{"l-007": {"creation": [], "modification": [], "x": "` + strings.Repeat("a", 4*line) + `"}, "current": []}`
	appendLog(t, dir, long+"\n")
	if snap, err = LoadTail(dir, nil); err != nil {
		t.Fatal(err)
	}
	if got := snapLogIDs(snap); got != "7:l-007" || snap.Log[0].Err != "" {
		t.Fatalf("holds %q %+v", got, snap.Log)
	}
	checkTail(t, dir, snap)
	appendLog(t, dir, long[:len(long)-5])
	if snap, err = LoadTail(dir, nil); err != nil {
		t.Fatal(err)
	}
	if len(snap.Log) != 1 || snap.Log[0].Line != 8 || snap.Log[0].Err == "" || snap.LogHead.Lines != 7 || snap.LogHead.Changes != 7 {
		t.Fatalf("holds %q, head %+v", snapLogIDs(snap), snap.LogHead)
	}
	appendLog(t, dir, long[len(long)-5:]+"\n")
	snap = Reload(dir, snap, []string{LogFile})
	if got := snapLogIDs(snap); got != "8:l-007" || snap.Log[0].Err != "" {
		t.Fatalf("holds %q", got)
	}
}

// Whatever the log and the window, the tail held is the whole read's tail.
func TestLoadTailRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		smallWindow(t, 1+r.IntN(8), int64(50+r.IntN(600)))
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "history"), 0o755)
		var b strings.Builder
		n := 0
		for range r.IntN(30) {
			switch r.IntN(6) {
			case 0:
				b.WriteString("\n")
			case 1:
				b.WriteString(" \t\n")
			case 2:
				b.WriteString("{bad\n")
			default:
				n++
				b.WriteString(logLine(n) + "\n")
			}
		}
		appendLog(t, dir, b.String())
		snap, err := LoadTail(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(round), func(t *testing.T) { checkTail(t, dir, snap) })
		for range 3 {
			appendLog(t, dir, strings.Repeat(logLine(99)+"\n\n", r.IntN(5)))
			snap = Reload(dir, snap, []string{LogFile})
			t.Run(fmt.Sprint(round, "reload"), func(t *testing.T) { checkTail(t, dir, snap) })
		}
	}
}

// A History of a tail says of each change it holds what the whole log's says; Back
// reads the older changes in, up to the whole log; With keeps them while the log grows.
func TestHistoryOfATail(t *testing.T) {
	dir := testutil.Copy(t, demoDir)
	whole, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	full := NewHistory(dir, whole)
	fullActivity := full.Activity()
	n := len(full.Changes())
	smallWindow(t, 5, 1<<20)
	snap, err := LoadTail(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHistory(dir, snap)
	same := func(h *History, held int) {
		t.Helper()
		if got := len(h.Changes()); got != held {
			t.Fatalf("holds %d changes, want %d", got, held)
		}
		if got, want := h.Activity(), fullActivity[n-held:]; !reflect.DeepEqual(got, want) {
			t.Fatalf("activity %+v\nwant %+v", got, want)
		}
		if h.Head().Changes != n-held {
			t.Fatalf("head %+v, %d changes before", h.Head(), n-held)
		}
		for _, e := range h.Changes() {
			got, want := at(t, h, e.ID), at(t, full, e.ID)
			sameSnapshot(t, e.ID, got, want)
			if !reflect.DeepEqual(got.Config, want.Config) || !reflect.DeepEqual(got.Broken, want.Broken) ||
				got.LogHead.Changes+len(got.Log) != len(want.Log) {
				t.Fatalf("%s: config %+v broken %v, %d+%d log lines; want %+v %v %d", e.ID, got.Config, got.Broken,
					got.LogHead.Changes, len(got.Log), want.Config, want.Broken, len(want.Log))
			}
		}
	}
	same(h, 5)
	if _, err := h.Index(full.Changes()[0].ID); err == nil {
		t.Fatal("the first change is held")
	}
	h, err = h.Back(10)
	if err != nil {
		t.Fatal(err)
	}
	same(h, 15)
	// The log grows: the newer snapshot's History keeps what was read back.
	appendLog(t, dir, `{"l-039": {"creation": [], "modification": []}, "current": []}`+"\n")
	next := Reload(dir, snap, []string{LogFile})
	h2 := h.With(next)
	if got := len(h2.Changes()); got != 16 || h2.Changes()[15].ID != "l-039" || h2.Head() != h.Head() {
		t.Fatalf("with the newer snapshot: %d changes, head %+v", got, h2.Head())
	}
	h, err = h.Back(1000)
	if err != nil {
		t.Fatal(err)
	}
	same(h, n)
	if h.Head() != (model.LogHead{}) {
		t.Fatalf("head %+v after reading it all", h.Head())
	}
	if b, err := h.Back(10); err != nil || b != h {
		t.Fatalf("back from the first line: %v", err)
	}
	// Rewritten: nothing older can be read.
	data, _ := os.ReadFile(filepath.Join(dir, LogFile))
	os.WriteFile(filepath.Join(dir, LogFile), []byte(strings.ReplaceAll(string(data), "creation", "creatioN")), 0o644)
	if _, err := NewHistory(dir, next).Back(10); err == nil || !strings.Contains(err.Error(), "rewritten") {
		t.Fatalf("back in a rewritten log: %v", err)
	}
}

// BenchmarkLoadTail opens a folder whose log is 64 MB (REFEREE_BENCH_BIGLOG=1: 500 MB,
// the size of bench's biglog row) as the workbench does, and lists the activity of
// what it holds. The biglog row times the same end to end, in the binary.
func BenchmarkLoadTail(b *testing.B) {
	size := 64 << 20
	if os.Getenv("REFEREE_BENCH_BIGLOG") != "" {
		size = 500 << 20
	}
	dir := b.TempDir()
	os.MkdirAll(filepath.Join(dir, "history"), 0o755)
	f, err := os.Create(filepath.Join(dir, LogFile))
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	lid := "l-001"
	for n := 0; n < size; {
		k, _ := fmt.Fprintf(w, `{"%s": {"creation": [], "modification": ["s-001"]}, "current": ["p-001", "s-010", "e-000"]}`+"\n", lid)
		n += k
		if lid, err = model.NextID(lid); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	b.ResetTimer()
	for b.Loop() {
		snap, err := LoadTail(dir, nil)
		if err != nil || snap.LogHead.Changes == 0 {
			b.Fatalf("%v, head %+v", err, snap.LogHead)
		}
		if a := NewHistory(dir, snap).Activity(); len(a) != logWindowLines {
			b.Fatalf("%d changes listed", len(a))
		}
	}
}

// checkLogReference is the check of the log as it was before it streamed: every line
// parsed at once, one map of the IDs.
func checkLogReference(dir string, counter string) []Finding {
	var out []Finding
	add := func(sev, object, format string, args ...any) {
		out = append(out, Finding{Severity: sev, Path: LogFile, Object: object, Msg: fmt.Sprintf(format, args...)})
	}
	data, _ := os.ReadFile(filepath.Join(dir, LogFile))
	seen := map[string]int{}
	for _, e := range ParseLog(string(data)) {
		if e.Err != "" {
			add(SeverityError, e.ID, "line %d does not parse: %s", e.Line, oneLineSyntax.ReplaceAllString(e.Err, "byte $1:"))
			continue
		}
		if first, dup := seen[e.ID]; dup {
			add(SeverityError, e.ID, "line %d: %s is also the change on line %d", e.Line, e.ID, first)
		} else {
			seen[e.ID] = e.Line
		}
		if counter != "" && model.CompareIDs(e.ID, counter) > 0 {
			add(SeverityError, e.ID, "line %d: %s is beyond the config.json counter %s: the next change would reuse an ID", e.Line, e.ID, counter)
		}
		for _, list := range [][]string{e.Creation, e.Modification} {
			for _, id := range list {
				if !model.ValidID(id, "") || objectFile(id) == "" {
					add(SeverityError, e.ID, "line %d: %q is not a problem, statement or experience ID", e.Line, id)
				}
			}
		}
		for _, id := range e.Modification {
			if model.ValidID(id, "") && objectFile(id) != "" {
				backup := HistoryDir + "/" + e.ID + "/" + id + ".json"
				if _, err := os.Lstat(filepath.Join(dir, backup)); err != nil {
					add(SeverityWarning, e.ID, "line %d: %s modified %s but %s is missing, so it cannot be rewound", e.Line, e.ID, id, backup)
				}
			}
		}
	}
	return out
}

// The check of the log, streamed, finds what a whole read found, in the same order:
// duplicates (found in a second pass) among the other findings of their lines, bad and
// over-long lines, blank lines counted, a last line without its newline.
func TestCheckStreamsTheLog(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	long := `{"l-002": {"creation": [], "modification": [], "x": "` + strings.Repeat("a", MaxLogLine) + `"}}`
	for round := range 30 {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "history", "l-003"), 0o755)
		os.WriteFile(filepath.Join(dir, "history", "l-003", "s-001.json"), []byte("{}"), 0o644)
		var b strings.Builder
		for range 5 + r.IntN(40) {
			switch r.IntN(8) {
			case 0:
				b.WriteString("\n")
			case 1:
				b.WriteString("{bad\n")
			case 2:
				if round%5 == 0 {
					b.WriteString(long + "\n")
				}
			case 3:
				fmt.Fprintf(&b, `{"l-%03d": {"creation": ["x-1"], "modification": ["s-001"]}}`+"\n", 1+r.IntN(6))
			default:
				fmt.Fprintf(&b, `{"l-%03d": {"creation": [], "modification": ["s-001"]}, "current": []}`+"\n", 1+r.IntN(6))
			}
		}
		if round%3 == 0 {
			b.WriteString(`{"l-009": {"creation": [], "modi`) // being written
		}
		os.WriteFile(filepath.Join(dir, LogFile), []byte(b.String()), 0o644)
		counter := "l-004"
		os.WriteFile(filepath.Join(dir, ConfigFile), []byte(`{"p": "p-000", "s": "s-000", "e": "e-000", "l": "`+counter+`"}`), 0o644)
		snap, err := load(dir, nil, readNoLog, true, nil)
		if err != nil {
			t.Fatal(err)
		}
		c := &checker{dir: dir, snap: snap}
		c.log()
		want := checkLogReference(dir, counter)
		if !reflect.DeepEqual(c.out, want) {
			t.Fatalf("round %d: %d findings\n%v\nwant %d\n%v", round, len(c.out), c.out, len(want), want)
		}
	}
}
