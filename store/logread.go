package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"

	"referee/model"
)

// The log is read by offset: a reload parses only the lines appended since the snapshot
// it starts from (agents only append), and reads the whole file again only when it is
// another file (device and inode), shorter than what was read, or rewritten (the bytes
// before the offset differ). A skill call costs its own line, not the run's.

// MaxLogLine is the longest log line parsed; a longer one is kept as a bad line that
// says so (agents write lines of a few hundred bytes).
const MaxLogLine = 1 << 20

// logTail is how many bytes before the offset are compared to tell a rewrite: more
// than a line, so that a rewritten last change is told.
const logTail = 512

// logMark is how far a snapshot's log was read (model.Snapshot.LogMark).
type logMark struct {
	dev, ino uint64
	off      int64  // bytes parsed as complete lines
	lines    int    // lines in them (blank ones too), for line numbers
	full     int    // the entries of those lines: Log[:full]
	tail     string // the logTail bytes before off
	// used is how many entries of the Log's backing array some snapshot may read: a
	// reload appends in place only from there (compare and swap), else copies.
	used *atomic.Int64
}

// readLog reads the log, from where prev's was read when the file is the same and only
// grew. A missing log is no entries and no error.
func readLog(dir string, prev *model.Snapshot) ([]model.LogEntry, *logMark, error) {
	path := filepath.Join(dir, filepath.FromSlash(LogFile))
	info, err := os.Lstat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := regular(info); err != nil {
		return nil, nil, err
	}
	seen, _ := info.Sys().(*syscall.Stat_t)
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) {
		return nil, nil, errLink
	} else if err != nil {
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, nil, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || seen != nil && (uint64(st.Dev) != uint64(seen.Dev) || st.Ino != seen.Ino) {
		return nil, nil, errLink
	}
	mark := &logMark{dev: uint64(st.Dev), ino: st.Ino}
	var base []model.LogEntry
	var pm *logMark
	if prev != nil {
		pm, _ = prev.LogMark.(*logMark)
	}
	if pm != nil && pm.dev == mark.dev && pm.ino == mark.ino && st.Size >= pm.off && sameTail(f, pm) {
		mark.off, mark.lines, mark.tail = pm.off, pm.lines, pm.tail
		base = prev.Log[:pm.full]
	} else {
		pm = nil
	}
	if st.Size > MaxLogSize {
		return nil, nil, fmt.Errorf("is %d bytes, more than the %d a log may have", st.Size, int64(MaxLogSize))
	}
	buf := make([]byte, st.Size-mark.off)
	if _, err := f.ReadAt(buf, mark.off); err != nil && !errors.Is(err, io.EOF) {
		return nil, nil, err
	}
	data := string(buf)
	complete := data[:strings.LastIndexByte(data, '\n')+1]
	added := parseLogLines(complete, mark.lines+1)
	mark.lines += strings.Count(complete, "\n")
	mark.off += int64(len(complete))
	if t := mark.tail + complete; len(t) > logTail {
		mark.tail = t[len(t)-logTail:]
	} else {
		mark.tail = t
	}
	mark.full = len(base) + len(added)
	var log []model.LogEntry
	if pm != nil && len(prev.Log) == pm.full && cap(prev.Log) >= mark.full &&
		pm.used.CompareAndSwap(int64(pm.full), int64(mark.full)) {
		log, mark.used = append(prev.Log[:pm.full], added...), pm.used // in place: nobody reads past full
	} else {
		log = make([]model.LogEntry, 0, mark.full+mark.full/4+16)
		log = append(append(log, base...), added...)
		mark.used = new(atomic.Int64)
		mark.used.Store(int64(mark.full))
	}
	if partial := data[len(complete):]; strings.TrimSpace(partial) != "" {
		// A line being written: listed now, parsed again once whole (never in place).
		if mark.used.CompareAndSwap(int64(mark.full), int64(mark.full+1)) {
			log = append(log, parseLogLines(partial, mark.lines+1)...)
		} else {
			log = append(log[:mark.full:mark.full], parseLogLines(partial, mark.lines+1)...)
		}
	}
	return log, mark, nil
}

// sameTail says whether the bytes before the mark's offset are still those read.
func sameTail(f *os.File, m *logMark) bool {
	if m.off == 0 {
		return true
	}
	b := make([]byte, len(m.tail))
	n, _ := f.ReadAt(b, m.off-int64(len(b)))
	return n == len(b) && string(b) == m.tail
}

// MaxLogSize is the largest log read (a run of a million changes is about 200 MB).
const MaxLogSize = 4 << 30

// parseLogLines is ParseLog numbering lines from first; a line longer than MaxLogLine is
// a bad line, unparsed.
func parseLogLines(data string, first int) []model.LogEntry {
	out := make([]model.LogEntry, 0, strings.Count(data, "\n")+1)
	for n := first; ; n++ {
		line, rest, more := strings.Cut(data, "\n")
		switch {
		case len(line) > MaxLogLine:
			out = append(out, model.LogEntry{Line: n, Raw: line[:256],
				Err: fmt.Sprintf("the line is %d bytes, more than the %d a log line may have", len(line), MaxLogLine)})
		case strings.TrimSpace(line) != "":
			out = append(out, model.ParseLogLine(n, line))
		}
		if !more {
			return out
		}
		data = rest
	}
}
