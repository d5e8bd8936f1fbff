package store

// Sharing the folder with writers that take no lock. The agents' own scripts read
// config.json once, bump counters in memory, write config.json, objects and backups in
// place (truncate, then write) and append to the log, all without referee's lock. So a
// change re-checks, just before it publishes, everything it decided from the disk:
//
//   - a new object, backup file or backup folder is put only where nothing is
//     (renameNoReplace, mkdir); a clash sends the change back to take the next free ID;
//   - an object it modifies or removes must still hold the bytes the skill read; if it
//     does not, the skill is applied again to the new version (a few times), else the
//     change stops with a ConflictError naming the object;
//   - config.json's counters are the maximum of what was read, what is on disk at the
//     moment of writing (read again just before the rename) and the IDs in use, so a
//     counter never moves back and a skill that creates nothing leaves them as they are.
//
// Some loss stays unavoidable while the other side takes no lock: a write that lands
// between the last re-check and the rename, or the other writer's own stale rewrite.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"referee/model"
	"referee/model/pyjson"
)

// raceHook, when set (by tests, before any change runs), is told of each read a change
// makes to re-check the disk (before it reads: what was on disk then, it sees), each
// file it publishes (after the rename, with its bytes) and each retry.
var raceHook func(event, rel string, data []byte)

func observe(event, rel string, data []byte) {
	if raceHook != nil {
		raceHook(event, rel, data)
	}
}

// raceError says another writer's file stood in a batch's way. Nothing of the batch is
// left on disk; the change can be made again on what is on disk now.
type raceError struct {
	object string // the object (or file) concerned
	stale  bool   // an object the skill read has changed (else: a file appeared where a new one goes)
	msg    string
}

func (e *raceError) Error() string { return e.msg }

func clash(rel string) error {
	return &raceError{object: rel, msg: "cannot write " + rel + ": another writer created it meanwhile"}
}

// maxAttempts bounds the runs of one change: staleTries for objects changed under it,
// and more for ID clashes (each takes a new ID, so they end, but a writer creating
// files as fast as referee probes them must not keep it forever).
const (
	staleTries  = 3
	maxAttempts = 12
)

// retrying runs start (which reads the folder and applies the change to a fresh tx) and
// commits it; when another writer got in the way it starts again from the disk.
func retrying(start func() (*tx, error), opts Options) (*Result, error) {
	stale := 0
	for attempt := 1; ; attempt++ {
		t, err := start()
		if err != nil {
			return nil, err
		}
		res, err := t.commit(opts)
		var re *raceError
		if !errors.As(err, &re) {
			return res, err
		}
		observe("retry", re.object, []byte(re.msg))
		if re.stale {
			stale++
		}
		if stale >= staleTries || attempt >= maxAttempts {
			why := fmt.Sprintf("another writer kept changing it while referee wrote (%d tries; the last: %s); nothing was written, try again", attempt, re.msg)
			return nil, &ConflictError{Object: re.object, Why: why}
		}
	}
}

// catchUp raises the batch's counters to what is on disk now, just before the change
// takes its own change ID: config.json as it is now, the log's last line, and the IDs
// in use (files and backup folders past the counters). A new object whose ID another
// writer has meanwhile taken (its counter is on disk, its file maybe not yet) sends the
// change back to take a free one.
func (t *tx) catchUp() error {
	disk := diskCounters(t.dir)
	read := configCounters(t.cfgOrig)
	for _, id := range t.created {
		kind := model.KindOf(id)
		if read[kind] != "" && model.CompareIDs(id, read[kind]) <= 0 {
			continue // not issued by this change (an undo bringing an object back)
		}
		if disk[kind] != "" && model.CompareIDs(disk[kind], id) >= 0 {
			return &raceError{object: id, msg: fmt.Sprintf("another writer took %s (config.json now says %s)", id, disk[kind])}
		}
	}
	for kind, v := range disk {
		if cur, ok := t.last[kind]; !ok || model.CompareIDs(v, cur) > 0 {
			t.last[kind] = v
		}
	}
	t.last = inUse(t.dir, t.last, t.createdKinds())
	return nil
}

// createdKinds are the counters this change may move past IDs in use: the change
// counter, and the kinds of the objects it creates. A change that creates no statement
// leaves the s counter where config.json has it even when a statement file lies past it
// (the agents' rewind.py can leave one): it is not this change's to count.
func (t *tx) createdKinds() map[string]bool {
	kinds := map[string]bool{model.KindChange: true}
	for _, id := range t.created {
		kinds[model.KindOf(id)] = true
	}
	return kinds
}

// diskCounters reads config.json's counters as they are now (none when it does not
// read) and the change ID of the log's last line.
func diskCounters(dir string) map[string]string {
	out := map[string]string{}
	observe("read", ConfigFile, nil)
	observe("read", LogFile, nil)
	if data, err := readStable(filepath.Join(dir, ConfigFile)); err == nil {
		out = configCounters(data)
	}
	if id := lastLogID(dir); id != "" && (out[model.KindChange] == "" || model.CompareIDs(id, out[model.KindChange]) > 0) {
		out[model.KindChange] = id
	}
	return out
}

func configCounters(data []byte) map[string]string {
	out := map[string]string{}
	doc, err := pyjson.Parse(data)
	if err != nil {
		return out
	}
	if cfg, err := model.ConfigFrom(doc); err == nil {
		for k, v := range cfg.Last {
			out[k] = v
		}
	}
	return out
}

// lastLogID is the change ID of the log's last complete line ("" when none reads): it
// reads only the log's end, whatever its size.
func lastLogID(dir string) string {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(LogFile)))
	if err != nil {
		return ""
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() == 0 {
		return ""
	}
	const tail = 64 << 10
	from := max(info.Size()-tail, 0)
	buf := make([]byte, info.Size()-from)
	if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	lines := bytes.Split(bytes.TrimRight(buf, "\n"), []byte("\n"))
	if from > 0 && len(lines) > 0 {
		lines = lines[1:] // the first may be cut
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if e := model.ParseLogLine(0, string(lines[i])); e.Err == "" && e.ID != "" {
			return e.ID
		}
	}
	return ""
}

// inUse raises each counter of kinds past the IDs in use beyond it: object files and
// backup folders that another writer made without (or before) moving the counter. It
// looks only past the counter, so it costs what is new, not what exists.
func inUse(dir string, last map[string]string, kinds map[string]bool) map[string]string {
	out := map[string]string{}
	for k, v := range last {
		out[k] = v
	}
	for _, kind := range []string{model.KindProblem, model.KindStatement, model.KindExperience, model.KindChange} {
		cur, ok := out[kind]
		if !ok || !kinds[kind] {
			continue
		}
		for range 1000 {
			next, err := model.NextID(cur)
			if err != nil {
				break
			}
			path := filepath.Join(dir, HistoryDir, next)
			if kind != model.KindChange {
				path = filepath.Join(dir, objectFile(next))
			}
			if _, err := os.Lstat(path); err != nil {
				break
			}
			cur = next
		}
		out[kind] = cur
	}
	return out
}

// configFor is config.json to write over the disk's current bytes: the batch's config
// with each counter the maximum of the batch's, the disk's and the IDs in use.
func (t *tx) configFor(disk []byte) []byte {
	last := map[string]string{}
	for k, v := range t.last {
		last[k] = v
	}
	for k, v := range configCounters(disk) {
		if cur, ok := last[k]; !ok || model.CompareIDs(v, cur) > 0 {
			last[k] = v
		}
	}
	last = inUse(t.dir, last, t.createdKinds())
	for _, kind := range []string{model.KindProblem, model.KindStatement, model.KindExperience, model.KindChange} {
		if v, ok := last[kind]; ok {
			t.cfg.Set(kind, pyjson.Str(v))
		}
	}
	return pyjson.EncodeIndent(t.cfg)
}
