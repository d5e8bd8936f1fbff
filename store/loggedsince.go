package store

import (
	"bytes"
	"slices"

	"referee/model"
)

// maxLoggedSince bounds what LoggedSince reads of the log's new lines; past it, the
// folder is read again in full (rescan), as a watcher that lost track would.
const maxLoggedSince = 16 << 20

// LoggedSince tells what the log says changed since snap was read. Every skill, referee's
// and the agents' scripts alike, appends a log line naming the objects it created,
// changed or deleted, so a reader that must see a change made a moment ago (an agent
// reads what it just wrote) checks the log, one stat, instead of waiting for a watcher.
// It returns nil when the log is the file snap read, at the length it read; the files to
// read again when lines were added (the log, config.json and every object they name); or
// rescan when the log was rewritten (a rewind, an undo that cut it) and the whole folder
// must be read again.
func LoggedSince(dir string, snap *model.Snapshot) (paths []string, rescan bool) {
	m, _ := snap.LogMark.(*logMark)
	f, st, err := openLogFile(dir)
	if err != nil {
		return nil, m != nil && m.ino != 0 // the log snap read is gone
	}
	defer f.Close()
	if m == nil || m.ino == 0 {
		return nil, st.Size > 0 // a log where there was none
	}
	if m.dev != uint64(st.Dev) || m.ino != st.Ino || st.Size < m.off {
		return nil, true
	}
	if st.Size == m.off {
		return nil, false
	}
	if st.Size-m.off > maxLoggedSince {
		return nil, true
	}
	buf := make([]byte, st.Size-m.off)
	n, _ := f.ReadAt(buf, m.off)
	buf = buf[:n]
	end := bytes.LastIndexByte(buf, '\n')
	if end < 0 {
		return nil, false // half a line so far: its change is not logged yet
	}
	paths = []string{LogFile, ConfigFile}
	for _, e := range parseLogLines(string(buf[:end+1]), m.lines+1, m.off) {
		for _, list := range [][]string{e.Creation, e.Modification, e.Deleted} { // "current" holds the counters
			for _, id := range list {
				if model.CheckID(id, "") == nil && model.KindOf(id) != model.KindChange {
					if rel := objectRelPath(id); !slices.Contains(paths, rel) {
						paths = append(paths, rel)
					}
				}
			}
		}
	}
	return paths, false
}
