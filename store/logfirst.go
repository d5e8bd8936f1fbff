package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"referee/model"
)

// A first frame shows one line of the log, the last change in the status bar; the
// log's tail (tens of thousands of lines at 10k statements) took longer to parse than
// the graph took to derive beside it, on the two cores the first frame waits for.
// LoadFirstThen reads that last change only; WithLogTail reads the tail once the
// frame is drawn.

// LoadFirstThen is LoadTailThen for a first frame: beside then it reads config.json
// and, of the log, only its last change (as the snapshot's whole Log, its Line not
// counted: 0), not the tail. A log that cannot be read is listed as broken, as a load
// lists it. WithLogTail gives the snapshot its tail. The log is read once logReady is
// closed (nil: at once), as a watcher started with WatchOptions.HistoryLater asks.
func LoadFirstThen(dir string, p *Progress, logReady <-chan struct{}, then func(*model.Snapshot)) (*model.Snapshot, error) {
	var (
		last   []model.LogEntry
		broken []model.BrokenFile
	)
	snap, err := load(dir, p, readNoLog, false, func(snap *model.Snapshot) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			if logReady != nil {
				<-logReady
			}
			last, broken = lastLogChange(dir)
		}()
		if then != nil {
			then(snap)
		}
		<-done
	})
	if err != nil {
		return nil, err
	}
	// After the config's and history/'s entries, as setMeta lists the log's.
	snap.Log, snap.Broken = last, append(snap.Broken, broken...)
	// A reload from this snapshot reads the tail afresh (the mark says a window was
	// asked for and holds no read), never on from the one change held.
	snap.LogMark = windowMark(true)
	return snap, nil
}

// WithLogTail is a snapshot LoadFirstThen made, with the log read as LoadTailThen
// reads it (its tail) in place of the last change: the rest of a first frame. The
// objects are shared.
func WithLogTail(dir string, snap *model.Snapshot) *model.Snapshot {
	s := *snap
	s.Broken = slices.DeleteFunc(slices.Clone(snap.Broken), func(b model.BrokenFile) bool {
		return b.Path == LogFile || b.Path == HistoryDir
	})
	s.Log, s.LogHead, s.LogMark = nil, model.LogHead{}, windowMark(true)
	if isLink(dir, HistoryDir) { // as readMeta
		s.Broken = append(s.Broken, model.BrokenFile{Path: HistoryDir, Reason: linkReason})
		return &s
	}
	var mark *logMark
	s.Log, mark, s.Broken = readLogInto(dir, nil, true, s.Broken)
	if mark != nil {
		s.LogMark, s.LogHead = mark, mark.head
	}
	return &s
}

// lastLogChange reads the entry a load's Log would end with (readLog): the line being
// written if it holds more than white space, else the last complete line that does (or
// is too long to read);
// none for an empty log. It reads back from the end, a growing piece at a time, only
// until that line's start. broken is what a load would list for the log.
func lastLogChange(dir string) (last []model.LogEntry, broken []model.BrokenFile) {
	if isLink(dir, HistoryDir) {
		return nil, nil // readMeta lists history/ itself
	}
	fail := func(err error) ([]model.LogEntry, []model.BrokenFile) {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, []model.BrokenFile{{Path: LogFile, Reason: unwrapPath(err).Error()}}
	}
	f, st, err := openLogFile(dir)
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	if st.Size > MaxLogSize {
		return fail(fmt.Errorf("is %d bytes, more than the %d a log may have", st.Size, int64(MaxLogSize)))
	}
	for piece := int64(64 << 10); ; piece *= 4 {
		from := max(st.Size-piece, 0)
		buf := make([]byte, st.Size-from)
		if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
			return fail(err)
		}
		if e, found, whole := lastEntry(buf, from); found {
			return []model.LogEntry{e}, nil
		} else if whole || from == 0 {
			return nil, nil
		}
	}
}

// lastEntry finds the last entry in buf, the log's bytes from offset from to its end.
// found: it is there; else whole says there is none at all (buf starts the log and
// holds nothing but white space), and neither means its start is further back.
func lastEntry(buf []byte, from int64) (e model.LogEntry, found, whole bool) {
	end := bytes.LastIndexByte(buf, '\n')
	if partial := buf[end+1:]; len(bytes.TrimSpace(partial)) > 0 {
		if end < 0 && from > 0 {
			return e, false, false
		}
		return parseLogLines(string(partial), 0, from+int64(end+1))[0], true, false
	}
	for at := end; at >= 0; {
		start := bytes.LastIndexByte(buf[:at], '\n') + 1
		if start == 0 && from > 0 {
			return e, false, false
		}
		if line := buf[start:at]; len(line) > MaxLogLine || len(bytes.TrimSpace(line)) > 0 { // as parseLogLines
			return parseLogLines(string(line), 0, from+int64(start))[0], true, false
		}
		at = start - 1
	}
	return e, false, from == 0
}
