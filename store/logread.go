package store

import (
	"bufio"
	"bytes"
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

// The workbench holds only the log's tail (LoadTail): at most logWindowLines lines and
// logWindowBytes bytes of it, parsed. The head before them is counted, not kept
// (model.LogHead: its lines, its changes, the offset where it ends), so that line
// numbers stay exact and nothing says the log is shorter than it is; History.Back reads
// further back on demand. A 500 MB log is five million lines: parsed whole, they held
// 3.6 GB. Appends grow the window up to twice its size, then its oldest lines are let
// go (a copy of the window, once per window of lines appended).
var (
	logWindowLines       = 64 << 10
	logWindowBytes int64 = 16 << 20
)

// SetLogWindow sets how many lines and bytes of the log LoadTail holds, and returns
// a function that restores the setting: for tests of what reads a tail, with a small
// window. It is not safe while a load runs.
func SetLogWindow(lines int, bytes int64) (restore func()) {
	l, b := logWindowLines, logWindowBytes
	logWindowLines, logWindowBytes = lines, bytes
	return func() { logWindowLines, logWindowBytes = l, b }
}

// logGen numbers the fresh reads of a log: a History that read back before its window
// keeps those lines for a newer snapshot only when it read on from the same read.
var logGen atomic.Uint64

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
	// window says only the tail is held (LoadTail); head is what was left out.
	window bool
	head   model.LogHead
	gen    uint64
}

// windowMark is the mark of a snapshot without a log read: nil, or for a LoadTail
// snapshot a mark that says so, so that a log read later holds only its tail too.
func windowMark(window bool) *logMark {
	if !window {
		return nil
	}
	return &logMark{window: true}
}

// readLog reads the log, from where prev's was read when the file is the same and only
// grew. A missing log is no entries and no error. With window (or when prev's was
// read so), only the tail is held.
func readLog(dir string, prev *model.Snapshot, window bool) ([]model.LogEntry, *logMark, error) {
	f, st, err := openLogFile(dir)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var pm *logMark
	if prev != nil {
		pm, _ = prev.LogMark.(*logMark)
	}
	if pm != nil {
		window = window || pm.window
	}
	mark := &logMark{dev: uint64(st.Dev), ino: st.Ino, window: window}
	var base []model.LogEntry
	if pm != nil && pm.used != nil && pm.dev == mark.dev && pm.ino == mark.ino && st.Size >= pm.off && sameTail(f, pm) {
		mark.off, mark.lines, mark.tail, mark.head, mark.gen = pm.off, pm.lines, pm.tail, pm.head, pm.gen
		base = prev.Log[:pm.full]
	} else {
		pm = nil
		mark.gen = logGen.Add(1)
	}
	if st.Size > MaxLogSize {
		return nil, nil, fmt.Errorf("is %d bytes, more than the %d a log may have", st.Size, int64(MaxLogSize))
	}
	var buf []byte
	switch {
	case pm != nil && window && st.Size-pm.off > 2*logWindowBytes:
		// More was appended than the window holds twice: its tail only, the rest of
		// what was appended counted on from what was read.
		known := model.LogHead{Lines: pm.lines, Changes: pm.head.Changes + pm.full, Offset: pm.off}
		pm, base, mark.tail = nil, nil, ""
		if buf, err = readTail(f, st.Size, mark, known); err != nil {
			return nil, nil, err
		}
	case pm == nil && window && st.Size > 0:
		if buf, err = readTail(f, st.Size, mark, model.LogHead{}); err != nil {
			return nil, nil, err
		}
	default:
		buf = make([]byte, st.Size-mark.off)
		if _, err := f.ReadAt(buf, mark.off); err != nil && !errors.Is(err, io.EOF) {
			return nil, nil, err
		}
	}
	data := string(buf)
	complete := data[:strings.LastIndexByte(data, '\n')+1]
	added := parseLogLines(complete, mark.lines+1, mark.off)
	mark.lines += strings.Count(complete, "\n")
	mark.off += int64(len(complete))
	if t := mark.tail + complete; len(t) > logTail {
		mark.tail = t[len(t)-logTail:]
	} else {
		mark.tail = t
	}
	mark.full = len(base) + len(added)
	var log []model.LogEntry
	switch {
	case pm != nil && window && (mark.full > 2*logWindowLines || mark.off-mark.head.Offset > 2*logWindowBytes):
		log = letGo(base, added, mark)
		mark.full = len(log)
		mark.used = new(atomic.Int64)
		mark.used.Store(int64(mark.full))
	case pm != nil && len(prev.Log) == pm.full && cap(prev.Log) >= mark.full &&
		pm.used.CompareAndSwap(int64(pm.full), int64(mark.full)):
		log, mark.used = append(prev.Log[:pm.full], added...), pm.used // in place: nobody reads past full
	default:
		log = make([]model.LogEntry, 0, mark.full+mark.full/4+16)
		log = append(append(log, base...), added...)
		mark.used = new(atomic.Int64)
		mark.used.Store(int64(mark.full))
	}
	if partial := data[len(complete):]; strings.TrimSpace(partial) != "" {
		// A line being written: listed now, parsed again once whole (never in place).
		if mark.used.CompareAndSwap(int64(mark.full), int64(mark.full+1)) {
			log = append(log, parseLogLines(partial, mark.lines+1, mark.off)...)
		} else {
			log = append(log[:mark.full:mark.full], parseLogLines(partial, mark.lines+1, mark.off)...)
		}
	}
	return log, mark, nil
}

// readTail reads the window of a log of size bytes: the last lines, at most
// logWindowLines of them in at most logWindowBytes, but at least the last line (and a
// line being written) however long. The head before them is counted into mark, which
// then reads on from there; known is what is known of the log before known.Offset (a
// line's start), which is not read again.
func readTail(f *os.File, size int64, mark *logMark, known model.LogHead) ([]byte, error) {
	from := max(size-logWindowBytes, known.Offset)
	if from > known.Offset {
		from-- // the byte before: a newline there means the window starts on a line
	}
	read := func() ([]byte, error) {
		buf := make([]byte, size-from)
		if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return buf, nil
	}
	buf, err := read()
	if err != nil {
		return nil, err
	}
	end := bytes.LastIndexByte(buf, '\n') + 1 // complete lines end there
	start := 0
	if from > known.Offset {
		start = bytes.IndexByte(buf, '\n') + 1
		if start == 0 || start == end {
			// No whole line in the window: it starts with the last line (or the
			// line being written), wherever that starts.
			if from, err = lineStart(f, from+int64(max(end-1, 0))); err != nil {
				return nil, err
			}
			if buf, err = read(); err != nil {
				return nil, err
			}
			start, end = 0, bytes.LastIndexByte(buf, '\n')+1
		}
	}
	// At most logWindowLines lines: back from the end, one newline per line.
	at := end
	for n := 0; n < logWindowLines && at > start; n++ {
		at = bytes.LastIndexByte(buf[start:at-1], '\n') + 1 + start
	}
	if end == start {
		at = start // only a line being written
	}
	head := known
	if headEnd := from + int64(at); headEnd > known.Offset {
		lines, changes, err := countLines(f, known.Offset, headEnd)
		if err != nil {
			return nil, err
		}
		head = model.LogHead{Lines: known.Lines + lines, Changes: known.Changes + changes, Offset: headEnd}
	}
	mark.head, mark.off, mark.lines = head, head.Offset, head.Lines
	return buf[at:], nil
}

// lineStart is where the line holding byte pos of the log starts: after the last
// newline before pos, read back a megabyte at a time.
func lineStart(f io.ReaderAt, pos int64) (int64, error) {
	buf := make([]byte, min(pos, 1<<20))
	for pos > 0 {
		b := buf[:min(int64(len(buf)), pos)]
		if _, err := f.ReadAt(b, pos-int64(len(b))); err != nil {
			return 0, err
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return pos - int64(len(b)) + int64(i) + 1, nil
		}
		pos -= int64(len(b))
	}
	return 0, nil
}

// countLines counts the lines of the log's bytes from start to end (each a line's
// start), and those that are not blank, reading a megabyte at a time (no allocation
// per line: a 500 MB head is five million lines).
func countLines(f *os.File, start, end int64) (lines, changes int, err error) {
	blank := true // the line read so far is blank
	err = eachMegabyte(f, start, end, func(b []byte) {
		for len(b) > 0 {
			i := bytes.IndexByte(b, '\n')
			line := b
			if i >= 0 {
				line = b[:i]
			}
			if blank && len(line) > 0 && (line[0] == '{' || len(bytes.TrimSpace(line)) > 0) {
				blank = false
			}
			if i < 0 {
				break
			}
			lines++
			if !blank {
				changes++
			}
			blank = true
			b = b[i+1:]
		}
	})
	if err != nil {
		return 0, 0, err
	}
	return lines, changes, nil
}

// eachMegabyte hands do the log's bytes from start to end a megabyte at a time, in one
// buffer (do must not keep a slice of it).
func eachMegabyte(f io.ReaderAt, start, end int64, do func(b []byte)) error {
	buf := make([]byte, min(end-start, 1<<20))
	for off := start; off < end; {
		b := buf[:min(int64(len(buf)), end-off)]
		if _, err := f.ReadAt(b, off); err != nil {
			return err
		}
		do(b)
		off += int64(len(b))
	}
	return nil
}

// letGo is the window after an append grew it past twice its size: its last
// logWindowLines entries within logWindowBytes of the end (at least the last one),
// copied, so that the older ones and the bytes they point into can be freed; mark.head
// grows by what was let go.
func letGo(base, added []model.LogEntry, mark *logMark) []model.LogEntry {
	n := len(base) + len(added)
	at := func(i int) *model.LogEntry {
		if i < len(base) {
			return &base[i]
		}
		return &added[i-len(base)]
	}
	k := max(n-logWindowLines, 0)
	for k < n-1 && at(k).Off < mark.off-logWindowBytes {
		k++
	}
	if n == 0 {
		return nil
	}
	kept := make([]model.LogEntry, 0, (n-k)+(n-k)/4+16)
	for i := k; i < n; i++ {
		kept = append(kept, *at(i))
	}
	mark.head = model.LogHead{Lines: kept[0].Line - 1, Changes: mark.head.Changes + k, Offset: kept[0].Off}
	return kept
}

// openLogFile opens the log for reading: no link followed, no FIFO blocked on, nothing
// but a regular file (still the one lstat saw); st is what fstat says of it.
func openLogFile(dir string) (*os.File, unix.Stat_t, error) {
	var st unix.Stat_t
	path := filepath.Join(dir, filepath.FromSlash(LogFile))
	info, err := os.Lstat(path)
	if err != nil {
		return nil, st, err
	}
	if err := regular(info); err != nil {
		return nil, st, err
	}
	seen, _ := info.Sys().(*syscall.Stat_t)
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) {
		return nil, st, errLink
	} else if err != nil {
		return nil, st, err
	}
	f := os.NewFile(uintptr(fd), path)
	if err := unix.Fstat(fd, &st); err != nil {
		f.Close()
		return nil, st, err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || seen != nil && (uint64(st.Dev) != uint64(seen.Dev) || st.Ino != seen.Ino) {
		f.Close()
		return nil, st, errLink
	}
	return f, st, nil
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

// parseLogLines is ParseLog numbering lines from first, data starting at byte off of
// the file; a line longer than MaxLogLine is a bad line, unparsed.
func parseLogLines(data string, first int, off int64) []model.LogEntry {
	out := make([]model.LogEntry, 0, strings.Count(data, "\n")+1)
	for n := first; ; n++ {
		line, rest, more := strings.Cut(data, "\n")
		switch {
		case len(line) > MaxLogLine:
			out = append(out, longLine(n, off, line[:256], len(line)))
		case strings.TrimSpace(line) != "":
			e := model.ParseLogLine(n, line)
			e.Off = off
			out = append(out, e)
		}
		if !more {
			return out
		}
		off += int64(len(line)) + 1
		data = rest
	}
}

// longLine is the entry of a line longer than MaxLogLine, unparsed.
func longLine(n int, off int64, start string, length int) model.LogEntry {
	return model.LogEntry{Line: n, Off: off, Raw: start,
		Err: fmt.Sprintf("the line is %d bytes, more than the %d a log line may have", length, MaxLogLine)}
}

// eachLogEntry calls fn with each entry of the first size bytes of the log f, as
// ParseLog reads them, a line at a time: what it holds is bounded by MaxLogLine
// however long the log (`referee check` reads a 500 MB log so).
func eachLogEntry(f io.ReaderAt, size int64, fn func(model.LogEntry)) error {
	r := bufio.NewReaderSize(io.NewSectionReader(f, 0, size), 64<<10)
	var line []byte // the line read so far, up to a little more than MaxLogLine
	total := 0      // its length, newline included, however long
	n, off := 1, int64(0)
	for {
		chunk, err := r.ReadSlice('\n')
		total += len(chunk)
		if len(line) <= MaxLogLine {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if total > 0 {
			length := total // without its newline, when it has one (err is nil)
			if err == nil {
				length--
			}
			if len(line) == total && err == nil {
				line = line[:length]
			}
			switch {
			case length > MaxLogLine:
				fn(longLine(n, off, string(line[:256]), length))
			case len(bytes.TrimSpace(line)) > 0:
				e := model.ParseLogLine(n, string(line))
				e.Off = off
				fn(e)
			}
			n++
			off += int64(total)
		}
		if err != nil { // io.EOF
			return nil
		}
		line, total = line[:0], 0
	}
}

// eachLineBack calls fn with each line of the first size bytes of f, the last first (a
// last line without its newline too, blank lines too), until fn returns true. It reads
// back 64 KiB at a time, so what a caller looking for a recent line costs is the lines
// after it, not the log; fn may keep line.
func eachLineBack(f io.ReaderAt, size int64, fn func(line []byte) bool) error {
	return eachLineBackAt(f, size, func(_ int64, line []byte) bool { return fn(line) })
}

// eachLineBackAt is eachLineBack giving each line's offset too.
func eachLineBackAt(f io.ReaderAt, size int64, fn func(off int64, line []byte) bool) error {
	const chunk = 64 << 10
	// The oldest line read so far, maybe not all of it, as the chunks it spans, newest
	// first: each byte is scanned for a newline once and copied once into its line
	// (joining the chunks at each step made a long line cost its length squared).
	var partial [][]byte
	line := func(head []byte) []byte {
		n := len(head)
		for _, p := range partial {
			n += len(p)
		}
		out := make([]byte, 0, n)
		out = append(out, head...)
		for i := len(partial) - 1; i >= 0; i-- {
			out = append(out, partial[i]...)
		}
		partial = partial[:0]
		return out
	}
	end := true // nothing but newlines read yet: the file's last newline ends no line after it
	for pos := size; pos > 0; {
		n := min(chunk, pos)
		pos -= n
		data := make([]byte, n)
		if _, err := f.ReadAt(data, pos); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		for {
			i := bytes.LastIndexByte(data, '\n')
			if i < 0 {
				break
			}
			l := line(data[i+1:])
			if (len(l) > 0 || !end) && fn(pos+int64(i)+1, l) {
				return nil
			}
			end, data = false, data[:i]
		}
		partial = append(partial, data)
		if pos == 0 {
			fn(0, line(nil))
		}
		end = end && len(data) == 0
	}
	return nil
}

// eachLineHoldingBack is eachLineBack for the lines that hold key only: it looks for
// key back from the end a megabyte at a time and reads only the lines it is found in.
func eachLineHoldingBack(f io.ReaderAt, size int64, key []byte, fn func(line []byte) bool) error {
	const chunk = 1 << 20
	buf := make([]byte, chunk+len(key))
	for end := size; end > 0; { // key is looked for in the bytes before end
		from := max(end-chunk, 0)
		b := buf[:min(end-from+int64(len(key))-1, size-from)]
		if _, err := f.ReadAt(b, from); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		i := lastIndex(b, key)
		if i < 0 || from+int64(i) >= end {
			end = from
			continue
		}
		start, err := lineStart(f, from+int64(i))
		if err != nil {
			return err
		}
		line, err := lineFrom(f, start, size)
		if err != nil {
			return err
		}
		if fn(line) {
			return nil
		}
		end = start
	}
	return nil
}

// lineFrom is the line of the log's first size bytes that starts at start, without its
// newline.
func lineFrom(f io.ReaderAt, start, size int64) ([]byte, error) {
	var line []byte
	buf := make([]byte, 64<<10)
	for off := start; off < size; {
		b := buf[:min(int64(len(buf)), size-off)]
		if _, err := f.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			return append(line, b[:i]...), nil
		}
		line, off = append(line, b...), off+int64(len(b))
	}
	return line, nil
}

// lastIndex is bytes.LastIndex, looking forwards (bytes.Index is vectorised, LastIndex
// is not: a 500 MB log without the key is searched in a tenth of the time).
func lastIndex(b, key []byte) int {
	last := -1
	for at := 0; ; {
		i := bytes.Index(b[at:], key)
		if i < 0 {
			return last
		}
		last, at = at+i, at+i+1
	}
}
