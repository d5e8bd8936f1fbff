// Package agents observes what the agents do, read only: their Claude Code transcripts
// and the state files the orchestrator's long-running agents keep under .claude (runs.go).
//
// From the transcripts it finds the sessions whose working directory is the project that
// holds the contents folder, follows them by reading only the bytes appended since the
// last look, and keeps per
// session and subagent who it is (orchestrator, agent-check, …), what it works on, what
// it is doing, what it cost, and the skill calls it made with the text written before
// each — so a change in the log can be tied to the agent and the reasoning behind it.
//
// Tokens are counted per API response (the lines sharing message.id and requestId,
// the one with the largest usage winning), priced by exact model ID from a dated
// table; a state is decided from the transcript and a clock (Decide). docs/transcripts.md
// says how each figure is made.
//
// It only reads: nothing under the Claude config folder is ever written. Memory does
// not grow with a transcript's length: a line is bounded (MaxLine), and an agent keeps
// counters, its last state, its recent responses and its skill calls (one per change
// it made), not its lines.
package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxLine bounds one transcript line. A longer line (a tool result holding a whole
// file) is skipped while streaming, never held, and noted.
const MaxLine = 8 << 20

// chunk is how much the tail reader reads at once.
const chunk = 64 << 10

// Tail follows one append-only JSONL file: each Read returns the complete lines added
// since the last, keeping a partial last line until its newline arrives. A file that
// shrinks or is replaced (another inode) is read again from its start; a deleted one
// reports Gone.
type Tail struct {
	Path string
	// Max bounds a line (default MaxLine).
	Max int

	off      int64 // bytes consumed (through the last newline, or skipped)
	dev, ino uint64
	partial  []byte // the start of a line whose newline has not arrived
	skipping bool   // inside an over-long line: drop bytes up to the next newline
	skipFrom int64  // where the skipped line began
	lineNo   int    // complete lines seen, for notes
	buf      []byte
	special  bool // the path is not a regular file (noted once)
	Gone     bool
	// OnReset, when set, is called when the file is read again from its start (it was
	// truncated, replaced or came back), before its lines are.
	OnReset func()
}

// Event is what a Read found besides lines.
type Event struct {
	Line int    // the line number it concerns (0: the file)
	Note string // what happened, in words
	// Reset is set when the file was truncated or replaced: what was known from it
	// before no longer describes it.
	Reset bool
}

// NewTail starts following path from its beginning.
func NewTail(path string) *Tail { return &Tail{Path: path} }

// Offset is how far the file has been consumed.
func (t *Tail) Offset() int64 { return t.off + int64(len(t.partial)) }

// Read calls line for every complete line appended since the last Read (without its
// newline; the slice is only valid during the call) and returns what else happened.
func (t *Tail) Read(line func(n int, b []byte)) ([]Event, error) {
	limit := t.Max
	if limit <= 0 {
		limit = MaxLine
	}
	var events []Event
	// Nothing new is the common case: a stat, not an open.
	if info, err := os.Stat(t.Path); err == nil {
		if !info.Mode().IsRegular() {
			// Opening a named pipe would block: such a file is never opened.
			if !t.special {
				t.special = true
				events = append(events, Event{Note: "not a regular file (" + info.Mode().Type().String() + "): not opened"})
			}
			return events, nil
		}
		t.special = false
		if dev, ino := fileID(info); !t.Gone && t.ino != 0 && dev == t.dev && ino == t.ino && info.Size() == t.Offset() {
			return nil, nil
		}
	}
	f, err := openRegular(t.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if !t.Gone {
				t.Gone = true
				events = append(events, Event{Note: "transcript deleted"})
			}
			return events, nil
		}
		return events, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return events, err
	}
	if !info.Mode().IsRegular() {
		return events, nil // replaced by a special file since the stat: next Read notes it
	}
	dev, ino := fileID(info)
	switch {
	case t.Gone:
		t.reset()
		t.Gone = false
		events = append(events, Event{Note: "transcript came back; reading it from the start", Reset: true})
	case t.ino != 0 && (dev != t.dev || ino != t.ino):
		t.reset()
		events = append(events, Event{Note: "transcript replaced (rotated); reading the new file from the start", Reset: true})
	case info.Size() < t.Offset():
		t.reset()
		events = append(events, Event{Note: "transcript truncated; reading it again from the start", Reset: true})
	}
	t.dev, t.ino = dev, ino
	if info.Size() == t.Offset() {
		return events, nil
	}
	if _, err := f.Seek(t.Offset(), io.SeekStart); err != nil {
		return events, err
	}
	if t.buf == nil {
		t.buf = make([]byte, chunk)
	}
	// Read no further than the size seen: a writer racing us is picked up next time.
	remain := info.Size() - t.Offset()
	for remain > 0 {
		n, err := f.Read(t.buf[:min(int64(len(t.buf)), remain)])
		if n == 0 && err != nil {
			if err == io.EOF {
				break
			}
			return events, err
		}
		remain -= int64(n)
		data := t.buf[:n]
		for len(data) > 0 {
			nl := bytes.IndexByte(data, '\n')
			if t.skipping {
				if nl < 0 {
					t.off += int64(len(data))
					data = nil
					continue
				}
				t.off += int64(nl + 1)
				data = data[nl+1:]
				t.skipping = false
				t.lineNo++
				events = append(events, Event{Line: t.lineNo, Note: fmt.Sprintf(
					"line %d (at byte %d, %d bytes) is longer than %d bytes: skipped", t.lineNo, t.skipFrom, t.off-t.skipFrom, limit)})
				continue
			}
			if nl < 0 {
				if len(t.partial)+len(data) > limit {
					t.skipFrom = t.off
					t.off += int64(len(t.partial) + len(data))
					t.partial = t.partial[:0]
					t.skipping = true
				} else {
					t.partial = append(t.partial, data...)
				}
				data = nil
				continue
			}
			piece := data[:nl]
			data = data[nl+1:]
			t.lineNo++
			if len(t.partial)+len(piece) > limit {
				events = append(events, Event{Line: t.lineNo, Note: fmt.Sprintf(
					"line %d (at byte %d, %d bytes) is longer than %d bytes: skipped", t.lineNo, t.off, len(t.partial)+len(piece), limit)})
				t.off += int64(len(t.partial) + len(piece) + 1)
				t.partial = t.partial[:0]
				continue
			}
			whole := piece
			if len(t.partial) > 0 {
				t.partial = append(t.partial, piece...)
				whole = t.partial
			}
			t.off += int64(len(whole) + 1)
			line(t.lineNo, whole)
			t.partial = t.partial[:0]
		}
	}
	// A long partial line's buffer is given back once it is done with.
	if len(t.partial) == 0 && cap(t.partial) > chunk {
		t.partial = nil
	}
	return events, nil
}

func (t *Tail) reset() {
	if t.OnReset != nil {
		t.OnReset()
	}
	t.off, t.lineNo = 0, 0
	t.partial = t.partial[:0]
	t.skipping = false
}

// Partial is how many bytes of an unfinished last line are waiting for their newline.
func (t *Tail) Partial() int { return len(t.partial) }

func fileID(info os.FileInfo) (dev, ino uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), uint64(st.Ino)
	}
	return 0, 0
}

// openRegular opens a file for reading without blocking should it have become a
// named pipe since it was looked at.
func openRegular(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
