package store

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// referee's skills race a writer that does what the agents' scripts do (src/utils.py
// and src/state.py at d8d7638), on one folder, without a lock: read config.json once
// per call, bump a counter and write config.json in place (truncate, then write) for
// each ID, write new objects in place, back up and rewrite the shared problem in place,
// append a log line; one to three log lines per call. The test counts what referee
// destroyed that it could have seen (goal 0) and what no lockless protocol can save.
//
// REFEREE_RACE_CALLS sets the number of referee calls (default 100, about five seconds).

// raceEvent is one thing either writer did, in one order for both. A write is recorded
// after it completed, a re-check read before it began: what was written before a read
// was on disk when the read began.
type raceEvent struct {
	seq        int
	who        string // "agent" or "referee"
	event      string // referee: read, wrote, retry, log; agent: open, config, create, update, log
	rel        string // the file (for update: the progress entry added; for log: the change ID)
	data       []byte
	overwrites bool // agent create: a file was already there
}

type raceEvents struct {
	mu   sync.Mutex
	list []raceEvent
}

func (r *raceEvents) add(e raceEvent) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	e.seq = len(r.list)
	r.list = append(r.list, e)
	return e.seq
}

// agentWriter emulates the agents' scripts: their behaviour, not their code.
type agentWriter struct {
	dir     string
	ev      *raceEvents
	rng     *rand.Rand
	claims  map[string]string // statement ID → the claim the agent created it with (last)
	created map[string]int    // statement ID → how many times the agent created it
}

// write is Python's open(path, "w") and json.dump: truncate at open, the bytes a
// moment later (json.dump fills the buffer, close flushes it).
func (a *agentWriter) write(rel string, data []byte) error {
	f, err := os.OpenFile(filepath.Join(a.dir, filepath.FromSlash(rel)), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	time.Sleep(time.Duration(20+a.rng.IntN(80)) * time.Microsecond)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (a *agentWriter) read(rel string) (pyjson.Value, error) {
	data, err := os.ReadFile(filepath.Join(a.dir, filepath.FromSlash(rel)))
	if err != nil {
		return pyjson.Value{}, err
	}
	return pyjson.Parse(data) // json.load: a torn file would stop the agent
}

// call is one skill call of an agent, in the order utils.py writes.
func (a *agentWriter) call(k int) error {
	cfgDoc, err := a.read(ConfigFile) // IDManager reads config.json once
	if err != nil {
		return fmt.Errorf("config.json: %v", err)
	}
	ids := map[string]string{}
	for _, kind := range []string{"p", "s", "e", "l"} {
		v, _ := cfgDoc.Get(kind)
		ids[kind] = v.Str
	}
	bump := func(kind string) (string, error) { // generate_id: the whole dict, in place
		next, err := model.NextID(ids[kind])
		if err != nil {
			return "", err
		}
		ids[kind] = next
		data := pyjson.EncodeIndent(pyjson.Obj(pyjson.M("p", pyjson.Str(ids["p"])), pyjson.M("s", pyjson.Str(ids["s"])),
			pyjson.M("e", pyjson.Str(ids["e"])), pyjson.M("l", pyjson.Str(ids["l"]))))
		if err := a.write(ConfigFile, data); err != nil {
			return "", err
		}
		a.ev.add(raceEvent{who: "agent", event: "config", rel: ConfigFile, data: data})
		return next, nil
	}
	create := func(sid string) error {
		claim := fmt.Sprintf("agent claim %d", k)
		rel := filepath.ToSlash(objectFile(sid))
		_, err := os.Lstat(filepath.Join(a.dir, rel))
		if err := a.write(rel, pyjson.EncodeIndent(model.NewStatement(sid, "normal", []string{claim}, nil, "pending"))); err != nil {
			return err
		}
		a.ev.add(raceEvent{who: "agent", event: "create", rel: sid, data: []byte(claim), overwrites: err == nil})
		a.claims[sid] = claim
		a.created[sid]++
		return nil
	}
	update := func(lid string) error { // update_objects: backup, apply, write back
		if err := os.MkdirAll(filepath.Join(a.dir, HistoryDir, lid), 0o755); err != nil {
			return err
		}
		doc, err := a.read("problem/p-001.json")
		if err != nil {
			return fmt.Errorf("p-001: %v", err)
		}
		if err := a.write(HistoryDir+"/"+lid+"/p-001.json", pyjson.EncodeIndent(doc)); err != nil {
			return err
		}
		entry := fmt.Sprintf("agent entry %d", k)
		appendStr(&doc, "progresses", entry)
		a.ev.add(raceEvent{who: "agent", event: "open", rel: entry})
		if err := a.write("problem/p-001.json", pyjson.EncodeIndent(doc)); err != nil {
			return err
		}
		a.ev.add(raceEvent{who: "agent", event: "update", rel: entry})
		return nil
	}
	logLine := func(lid string, created, modified []string) error {
		line := pyjson.EncodeLine(pyjson.Obj(
			pyjson.M(lid, pyjson.Obj(pyjson.M("creation", pyjson.Strs(nonNil(created))), pyjson.M("modification", pyjson.Strs(nonNil(modified))))),
			pyjson.M("current", pyjson.Strs([]string{ids["p"], ids["s"], ids["e"]}))))
		f, err := os.OpenFile(filepath.Join(a.dir, filepath.FromSlash(LogFile)), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return err
		}
		_, err = f.Write(append(line, '\n'))
		f.Close()
		a.ev.add(raceEvent{who: "agent", event: "log", rel: lid})
		return err
	}
	switch k % 3 {
	case 0: // a wrap-up through handle_changes: one log line
		sid, err := bump("s")
		if err != nil {
			return err
		}
		lid, err := bump("l")
		if err != nil {
			return err
		}
		if err := create(sid); err != nil {
			return err
		}
		if err := update(lid); err != nil {
			return err
		}
		return logLine(lid, []string{sid}, []string{"p-001"})
	case 1: // update_objects alone: one log line
		lid, err := bump("l")
		if err != nil {
			return err
		}
		if err := update(lid); err != nil {
			return err
		}
		return logLine(lid, nil, []string{"p-001"})
	default: // commit_objects, then update_objects: two log lines
		sid, err := bump("s")
		if err != nil {
			return err
		}
		if err := create(sid); err != nil {
			return err
		}
		lid, err := bump("l")
		if err != nil {
			return err
		}
		if err := logLine(lid, []string{sid}, nil); err != nil {
			return err
		}
		if lid, err = bump("l"); err != nil {
			return err
		}
		if err := update(lid); err != nil {
			return err
		}
		return logLine(lid, nil, []string{"p-001"})
	}
}

// raceFigures is what the race test counts.
type raceFigures struct {
	refereeCalls, refereeChanges, retries, conflicts, refused, abandoned int
	agentCalls, agentLines, agentCallsFailed                             int
	// What referee destroyed that it could have seen (goal 0).
	overwroteAgentObjects, counterRegressions, lostAgentUpdates, reusedChangeIDs int
	// What no lockless protocol saves.
	agentOverwroteReferee, agentSetCountersBack, agentReusedOwnIDs, agentUpdatesLostInFlight, refereeEntriesLost, agentReusedChangeIDs int
}

func TestRaceWithTheAgentsScripts(t *testing.T) {
	calls := 100
	if n, err := strconv.Atoi(os.Getenv("REFEREE_RACE_CALLS")); err == nil && n > 0 {
		calls = n
	}
	dir := openFolder(t)
	ev := &raceEvents{}
	raceHook = func(event, rel string, data []byte) {
		ev.add(raceEvent{who: "referee", event: event, rel: rel, data: slices.Clone(data)})
	}
	defer func() { raceHook = nil }()

	var fig raceFigures
	refereeClaims := map[string]string{} // statement ID → referee's claim
	var refereeEntries []string          // progress entries referee's wrap-ups added to p-001
	done := make(chan struct{})
	agentErr := make(chan error, 1)
	a := &agentWriter{dir: dir, ev: ev, rng: rand.New(rand.NewPCG(11, 3)), claims: map[string]string{}, created: map[string]int{}}
	go func() {
		defer close(agentErr)
		for k := 0; ; k++ {
			select {
			case <-done:
				fig.agentCalls = k
				return
			default:
			}
			if err := a.call(k); errors.Is(err, fs.ErrNotExist) {
				// Python stops with FileNotFoundError: referee gave up a change under
				// the same change ID and removed its empty backup folder just as the
				// agent made it (the agent's makedirs found it there).
				fig.agentCallsFailed++
				t.Logf("agent call %d failed: %v", k, err)
			} else if err != nil {
				agentErr <- fmt.Errorf("agent call %d: %v", k, err)
				fig.agentCalls = k
				return
			}
			time.Sleep(time.Duration(3000+a.rng.IntN(12000)) * time.Microsecond)
		}
	}()
	wrap, _ := skill.Lookup("prob-wrapup-statement")
	prove, _ := skill.Lookup("state-complete-proof")
	var last string
	// On a loaded machine the agent wins more races (a call of referee's takes longer,
	// so the agent writes p-001 within it more often): the calls go on past calls, up to
	// ten times as many, until a tenth of them made a change.
	j := 0
	for ; j < calls || fig.refereeChanges < calls/10 && j < 10*calls; j++ {
		var res *Result
		var err error
		if j%2 == 0 || last == "" {
			claim := fmt.Sprintf("referee claim %d", j)
			res, err = Run(dir, wrap, skill.Args{"problem_id": "p-001", "claim": []string{claim}}, Options{Actor: "referee"})
			if err == nil {
				last = res.Created[0]
				refereeClaims[last] = claim
				refereeEntries = append(refereeEntries, "("+last+") "+claim)
			}
		} else {
			res, err = Run(dir, prove, skill.Args{"statement_id": last, "proof_text": "Step 1: so. QED.", "strategy": "direct"}, Options{Actor: "referee"})
			last = ""
		}
		var ce *ConflictError
		var pe *skill.PreconditionError
		switch {
		case err == nil:
			fig.refereeChanges++
			ev.add(raceEvent{who: "referee", event: "log", rel: res.Change})
		case errors.As(err, &ce):
			fig.conflicts++
		case errors.As(err, &pe): // its statement was written over by the agent
			fig.refused++
		case strings.Contains(err.Error(), "which another writer wrote over meanwhile"):
			fig.abandoned++ // undone but for what the agent wrote over mid-change: not made again
		default:
			close(done)
			t.Fatalf("referee call %d: %v", j, err)
		}
	}
	fig.refereeCalls = j
	close(done)
	if err := <-agentErr; err != nil {
		t.Fatal(err)
	}
	raceHook = nil
	for _, n := range a.created {
		fig.agentReusedOwnIDs += n - 1
	}
	countRace(t, dir, ev.list, &fig, a.claims, refereeClaims, refereeEntries)

	t.Logf("race: %d referee calls (%d changes, %d retries, %d conflicts, %d refused, %d abandoned) against %d agent calls (%d log lines, %d failed)",
		fig.refereeCalls, fig.refereeChanges, fig.retries, fig.conflicts, fig.refused, fig.abandoned, fig.agentCalls, fig.agentLines, fig.agentCallsFailed)
	t.Logf("referee destroyed: %d agent objects overwritten, %d counter regressions, %d agent updates lost that it could have seen, %d change IDs reused",
		fig.overwroteAgentObjects, fig.counterRegressions, fig.lostAgentUpdates, fig.reusedChangeIDs)
	t.Logf("unavoidable: the agent wrote over %d referee objects, set counters back %d times, reused %d of its own IDs, lost %d updates to a rename during its write, dropped %d referee entries, reused %d change IDs",
		fig.agentOverwroteReferee, fig.agentSetCountersBack, fig.agentReusedOwnIDs, fig.agentUpdatesLostInFlight, fig.refereeEntriesLost, fig.agentReusedChangeIDs)
	if fig.overwroteAgentObjects+fig.counterRegressions+fig.lostAgentUpdates+fig.reusedChangeIDs > 0 {
		t.Error("referee destroyed writes of the other writer that it could have seen")
	}
	// Enough must have happened to test anything. How many calls end in a change rather
	// than a conflict depends on how fast each side runs: the bar is a tenth of calls,
	// not a share that needs a quiet machine, and the calls went on to reach it.
	if fig.refereeChanges < calls/10 || fig.agentCalls < 10 {
		t.Errorf("too little happened to test anything: %d referee changes, %d agent calls", fig.refereeChanges, fig.agentCalls)
	}
	// The folder stays readable: every object and log line parses.
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
}

// countRace works the figures out of the events and the folder as the race left it.
func countRace(t *testing.T, dir string, events []raceEvent, fig *raceFigures, agentClaims, refereeClaims map[string]string, refereeEntries []string) {
	claimOf := func(id string) string {
		data, err := os.ReadFile(filepath.Join(dir, objectFile(id)))
		if err != nil {
			return ""
		}
		doc, _ := pyjson.Parse(data)
		if st := model.StatementFrom(doc); len(st.Conclusion) > 0 {
			return st.Conclusion[0]
		}
		return ""
	}
	// New objects: whose claim each holds now.
	for id, claim := range agentClaims {
		if _, ok := refereeClaims[id]; ok && claimOf(id) != claim {
			fig.overwroteAgentObjects++
		}
	}
	for id, claim := range refereeClaims {
		if claimOf(id) != claim {
			fig.agentOverwroteReferee++
		}
	}

	// Counters: referee's config.json may not go below what was on disk, or in use,
	// when it last read config.json before writing it.
	kinds := []string{"p", "s", "e", "l"}
	onDisk, inUse, floor := map[string]string{}, map[string]string{}, map[string]string{}
	higher := func(m map[string]string, id string) {
		if k := model.KindOf(id); k != "" && (m[k] == "" || model.CompareIDs(id, m[k]) > 0) {
			m[k] = id
		}
	}
	below := func(c map[string]string, ref map[string]string) bool {
		for _, k := range kinds {
			if c[k] != "" && ref[k] != "" && model.CompareIDs(c[k], ref[k]) < 0 {
				return true
			}
		}
		return false
	}
	lastRead := map[string]int{} // file → seq of referee's last re-check read of it
	opened := map[string]int{}   // agent progress entry → seq when its write began
	entryDone := map[string]int{}
	lost := map[string]bool{}
	var agentEntries []string
	for _, e := range events {
		switch {
		case e.who == "agent" && e.event == "config":
			c := configCounters(e.data)
			ref := map[string]string{}
			for _, m := range []map[string]string{onDisk, inUse} {
				for _, v := range m {
					higher(ref, v)
				}
			}
			if below(c, ref) {
				fig.agentSetCountersBack++
			}
			onDisk = c
		case e.who == "agent" && e.event == "create":
			higher(inUse, e.rel)
		case e.who == "agent" && e.event == "log":
			higher(inUse, e.rel)
			fig.agentLines++
		case e.who == "agent" && e.event == "open":
			opened[e.rel] = e.seq
		case e.who == "agent" && e.event == "update":
			entryDone[e.rel] = e.seq
			agentEntries = append(agentEntries, e.rel)
		case e.who == "referee" && e.event == "retry":
			fig.retries++
		case e.who == "referee" && e.event == "log":
			higher(inUse, e.rel)
		case e.who == "referee" && e.event == "read":
			lastRead[e.rel] = e.seq
			if e.rel == ConfigFile {
				floor = map[string]string{}
				for _, m := range []map[string]string{onDisk, inUse} {
					for _, v := range m {
						higher(floor, v)
					}
				}
			}
		case e.who == "referee" && e.event == "wrote" && e.rel == ConfigFile:
			c := configCounters(e.data)
			if below(c, floor) {
				fig.counterRegressions++
				t.Logf("referee wrote config.json %v over %v", c, floor)
			}
			onDisk = c
		case e.who == "referee" && e.event == "wrote" && strings.HasPrefix(e.rel, StatementDir+"/"):
			higher(inUse, strings.TrimSuffix(strings.TrimPrefix(e.rel, StatementDir+"/"), ".json"))
		case e.who == "referee" && e.event == "wrote" && e.rel == "problem/p-001.json":
			// Every agent entry whose write completed before referee's last re-check
			// read must be in what it wrote, unless a rename of referee's replaced the
			// file while the agent was writing it (its write went to the old file).
			doc, _ := pyjson.Parse(e.data)
			has := map[string]bool{}
			for _, p := range model.ProblemFrom(doc).Progresses {
				has[p] = true
			}
			r := lastRead[e.rel]
			for _, entry := range agentEntries {
				if entryDone[entry] < r && !has[entry] && !lost[entry] {
					lost[entry] = true
					if !renamedDuring(events, opened[entry], entryDone[entry]) {
						fig.lostAgentUpdates++
						t.Logf("referee's write of p-001 at %d dropped %q, written at %d before its read at %d", e.seq, entry, entryDone[entry], r)
					}
				}
			}
		}
	}
	final := problemDoc(t, dir)
	for _, entry := range agentEntries {
		if !slices.Contains(final.Progresses, entry) && !(lost[entry] && !renamedDuring(events, opened[entry], entryDone[entry])) {
			fig.agentUpdatesLostInFlight++
		}
	}
	for _, entry := range refereeEntries {
		if !slices.Contains(final.Progresses, entry) {
			fig.refereeEntriesLost++
		}
	}

	// Change IDs used twice in the log: who appended second, and could it have seen the first?
	lines := ParseLog(read(t, dir, LogFile))
	first := map[string]model.LogEntry{}
	for _, e := range lines {
		f, dup := first[e.ID]
		if !dup {
			first[e.ID] = e
			continue
		}
		if e.By == "referee" && f.By == "" {
			// Could it have seen the agent's line? Only if that line was appended before
			// the change read the log's end.
			agentSeq, readSeq := -1, -1
			for _, ev := range events {
				if ev.who == "agent" && ev.event == "log" && ev.rel == e.ID && agentSeq < 0 {
					agentSeq = ev.seq
				}
				if ev.who == "referee" && ev.event == "read" && ev.rel == LogFile && agentSeq >= 0 {
					readSeq = ev.seq
				}
				if ev.who == "referee" && ev.event == "log" && ev.rel == e.ID {
					break
				}
			}
			if agentSeq >= 0 && readSeq > agentSeq {
				fig.reusedChangeIDs++
				continue
			}
		}
		fig.agentReusedChangeIDs++
	}
}

// renamedDuring tells whether referee replaced p-001 between from and to.
func renamedDuring(events []raceEvent, from, to int) bool {
	for _, e := range events[from:to] {
		if e.who == "referee" && e.event == "wrote" && e.rel == "problem/p-001.json" {
			return true
		}
	}
	return false
}
