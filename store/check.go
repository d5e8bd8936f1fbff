package store

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"referee/model"
	"referee/skill"
)

// Severities of a Finding.
const (
	SeverityError   = "error"   // the agents or referee will misbehave on it
	SeverityWarning = "warning" // suspicious, but the folder still works
)

// Finding is one thing `referee check` reports about a contents folder.
type Finding struct {
	Severity string `json:"severity"` // SeverityError or SeverityWarning
	Path     string `json:"path"`     // file relative to the folder, forward slashes
	Object   string `json:"object"`   // the object (or change) concerned, "" when none
	Msg      string `json:"msg"`
}

func (f Finding) String() string {
	if f.Object == "" {
		return f.Path + ": " + f.Msg
	}
	return f.Path + ": " + f.Object + ": " + f.Msg
}

// Check lints a contents folder: unreadable or misnamed files, fields of the wrong shape,
// broken references and cycles, claims repeating a settled one (re-treads, warnings),
// issue and response numbering against the statuses, config counters that would make
// the next ID collide, and the change log with its backups. Findings come errors first,
// then by file (IDs in issue order), then in the order they were found. It fails only
// when the folder itself cannot be read.
func Check(dir string) ([]Finding, error) {
	defer readLock(dir)() // a change in progress is not a leftover
	// Every proof text checked, each file read once; the log is read by log(), a line
	// at a time (a 500 MB log parsed whole held 3.6 GB).
	snap, err := load(dir, nil, readNoLog, true, nil)
	if err != nil {
		return nil, &skill.InputError{Msg: err.Error()}
	}
	c := &checker{dir: dir, snap: snap, graph: model.Derive(snap)}
	c.files()
	c.specialHistory()
	c.objects()
	c.references()
	c.retreads()
	c.config()
	c.log()
	c.referenceItems()
	c.interrupted()
	slices.SortStableFunc(c.out, compareFindings)
	if c.out == nil {
		c.out = []Finding{}
	}
	return c.out, nil
}

type checker struct {
	dir   string
	snap  *model.Snapshot
	graph *model.Graph
	out   []Finding
}

func (c *checker) add(sev, path, object, format string, args ...any) {
	c.out = append(c.out, Finding{Severity: sev, Path: path, Object: object, Msg: fmt.Sprintf(format, args...)})
}

// objectRelPath is the file of an object ID, with forward slashes.
func objectRelPath(id string) string { return filepath.ToSlash(objectFile(id)) }

// files reports what Load could not read, and entries the object folders should not hold.
func (c *checker) files() {
	for _, b := range c.snap.Broken {
		if b.Path == ConfigFile {
			continue // config() reports it with the counters
		}
		c.add(SeverityError, b.Path, b.ID, "%s", b.Reason)
	}
	for _, sub := range objectDirs {
		if isLink(c.dir, sub) {
			continue // Load reported it
		}
		entries, err := os.ReadDir(filepath.Join(c.dir, sub))
		if err != nil {
			continue // Load reported it, or the folder is simply absent
		}
		for _, e := range entries {
			if special(e) != "" && !strings.HasSuffix(e.Name(), ".json") {
				c.add(SeverityWarning, sub+"/"+e.Name(), "", "%s, not an object file: skipped", special(e))
				continue
			}
			if strings.HasSuffix(e.Name(), ".json") || isTempName(e.Name()) {
				continue // temp files: interrupted() reports them
			}
			c.add(SeverityWarning, sub+"/"+e.Name(), "", "not an object file (the agents and referee ignore it)")
		}
	}
}

// special names a FIFO, device or socket (which a read could block on forever), or "".
func special(e fs.DirEntry) string {
	switch t := e.Type(); {
	case t&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case t&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	case t&fs.ModeSocket != 0:
		return "a socket"
	case t&fs.ModeIrregular != 0:
		return "a special file"
	}
	return ""
}

// specialHistory notes the special files directly in history/: no backup folder, log or
// journal is one, and nothing reads them.
func (c *checker) specialHistory() {
	if isLink(c.dir, HistoryDir) {
		return
	}
	entries, _ := os.ReadDir(filepath.Join(c.dir, HistoryDir))
	for _, e := range entries {
		if what := special(e); what != "" {
			c.add(SeverityWarning, HistoryDir+"/"+e.Name(), "", "%s, not a backup folder or a file referee uses: skipped", what)
		}
	}
}

// olderFormat says once per kind which objects are in the agents' earlier format: their
// own history holds such files, which are read as they are, not reported key by key.
func (c *checker) olderFormat() {
	var problems, statements []string
	for _, id := range checkSortedIDs(c.snap.Problems) {
		if c.snap.Problems[id].Older {
			problems = append(problems, id)
		}
	}
	for _, id := range slices.SortedFunc(c.snap.Statements.Keys(), model.CompareIDs) {
		if c.snap.Statements.Get(id).Older {
			statements = append(statements, id)
		}
	}
	if len(problems) > 0 {
		c.add(SeverityWarning, ProblemDir+"/", "", "%s in the agents' earlier format (motivation; no priority, summary, progresses or preliminaries), read as such: %s",
			countOf(len(problems), "problem", "problems"), listIDs(problems))
	}
	if len(statements) > 0 {
		c.add(SeverityWarning, StatementDir+"/", "", "%s in the agents' earlier format (dependencies, proof.reference, no validation), read as such: %s",
			countOf(len(statements), "statement", "statements"), listIDs(statements))
	}
}

func countOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// listIDs names up to 10 IDs.
func listIDs(ids []string) string {
	if len(ids) <= 10 {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:10], ", ") + fmt.Sprintf(" and %d more", len(ids)-10)
}

// objects checks each object on its own: its id, field shapes, type, status, and for
// statements the issue and response threads against the status.
func (c *checker) objects() {
	for _, id := range checkSortedIDs(c.snap.Problems) {
		p := c.snap.Problems[id]
		c.identity(id, p.ID, p.Problems)
		if p.Status != "" && model.ProblemPhase(p.Status) != model.PhaseProblemOpen && model.ProblemPhase(p.Status) != model.PhaseProblemSolved {
			if _, _, known := model.StatusInfo(p.Status); known {
				c.add(SeverityWarning, objectRelPath(id), id, "status %q is a statement status, not a problem's (unresolved, solved or resolved)", p.Status)
			} else {
				c.add(SeverityWarning, objectRelPath(id), id, "unknown status %q (neither vocabulary has it)", p.Status)
			}
		}
	}
	for _, id := range slices.SortedFunc(c.snap.Statements.Keys(), model.CompareIDs) {
		st := c.snap.Statements.Get(id)
		c.identity(id, st.ID, st.Problems)
		if st.Type != "" && st.Type != "assumption" && st.Type != "proposition" && st.Type != "normal" {
			c.add(SeverityWarning, objectRelPath(id), id, "type %q is not assumption, proposition or normal", st.Type)
		}
		switch ph, _, known := model.StatusInfo(st.Status); {
		case st.Status == "":
		case !known:
			c.add(SeverityWarning, objectRelPath(id), id, "unknown status %q (neither vocabulary has it)", st.Status)
		case ph == model.PhaseProblemOpen || ph == model.PhaseProblemSolved:
			c.add(SeverityWarning, objectRelPath(id), id, "status %q is a problem status, not a statement's", st.Status)
		}
		c.threads(id, st)
	}
	c.olderFormat()
	for _, id := range checkSortedIDs(c.snap.Experiences) {
		e := c.snap.Experiences[id]
		c.identity(id, e.ID, e.Problems)
	}
}

func (c *checker) identity(fileID, docID string, problems []model.FieldProblem) {
	path := objectRelPath(fileID)
	if docID != "" && docID != fileID {
		c.add(SeverityError, path, fileID, "its \"id\" is %q, not the file name's %s", docID, fileID)
	}
	for _, fp := range problems {
		c.add(SeverityError, path, fileID, "%s", fp.String())
	}
}

// threads checks issue and response numbering (#1..#N in list order, no duplicates,
// every response fixing an existing issue) and whether the status fits the counts.
func (c *checker) threads(id string, st *model.Statement) {
	path := objectRelPath(id)
	issueNumbers := map[int]bool{}
	for i, raw := range st.Issues {
		is := model.ParseIssue(raw)
		if !is.Parsed {
			c.add(SeverityWarning, path, id, "issue %d of %d does not parse (%s); it is shown as written", i+1, len(st.Issues), is.Problem)
		}
		switch {
		case is.Number == 0:
		case issueNumbers[is.Number]:
			c.add(SeverityError, path, id, "two issues are numbered #%d", is.Number)
		case is.Number != i+1:
			c.add(SeverityError, path, id, "issue #%d is number %d in the list (issues must be #1..#%d in order)", is.Number, i+1, len(st.Issues))
		}
		if is.Number > 0 {
			issueNumbers[is.Number] = true
		}
	}
	responseNumbers := map[int]bool{}
	for i, raw := range st.Responses {
		r := model.ParseResponse(raw)
		if !r.Parsed {
			c.add(SeverityWarning, path, id, "response %d of %d does not parse (%s); it is shown as written", i+1, len(st.Responses), r.Problem)
		}
		switch {
		case r.Number == 0:
		case responseNumbers[r.Number]:
			c.add(SeverityError, path, id, "two responses are numbered #%d", r.Number)
		case r.Number != i+1:
			c.add(SeverityError, path, id, "response #%d is number %d in the list (responses must be #1..#%d in order)", r.Number, i+1, len(st.Responses))
		}
		if r.Number > 0 {
			responseNumbers[r.Number] = true
		}
		if r.Fixes > 0 && !issueNumbers[r.Fixes] {
			c.add(SeverityError, path, id, "response #%d fixes issue #%d, which does not exist", r.Number, r.Fixes)
		}
		if r.Type == "substatement" && r.SubID != "" && !c.snap.Exists(r.SubID) {
			c.add(SeverityError, path, id, "response #%d names sub-statement %s, which does not exist", r.Number, r.SubID)
		}
	}
	open := model.Unanswered(st.Issues, st.Responses)
	if len(open) > 0 {
		// An issue nobody answered quotes the proof as it is: a quote it does not hold
		// leaves the fixer nothing to find (an answered one may quote a proof since patched).
		if text, err := st.Proof.Text(); err == nil {
			for _, raw := range st.Issues {
				is := model.ParseIssue(raw)
				if slices.Contains(open, is.Number) && is.SentenceText != "" && !model.QuoteIn(is.SentenceText, text) {
					c.add(SeverityWarning, path, id, "issue #%d quotes sentence %d as %q, which is not in the proof", is.Number, is.Sentence, is.SentenceText)
				}
			}
		}
	}
	switch st.Status {
	case "has_gap":
		if len(open) == 0 {
			c.add(SeverityError, path, id, "status has_gap, but no issue is without a response (the fixer has nothing to answer)")
		}
	case "awaiting_verification":
		if len(open) > 0 {
			c.add(SeverityError, path, id, "status awaiting_verification, but issue #%d has no response (the checker will refuse it)", open[0])
		}
		if st.Proof.Blank() {
			c.add(SeverityError, path, id, "status awaiting_verification, but it has no proof")
		}
	case "true":
		if len(open) > 0 {
			c.add(SeverityWarning, path, id, "status true, but issue #%d has no response", open[0])
		}
	case "awaiting_substatements", "awaiting_substatement":
		if len(st.Preliminaries) == 0 {
			c.add(SeverityWarning, path, id, "status %s, but it has no sub-statements", st.Status)
		}
	}
}

var edgeFields = map[model.EdgeKind]string{
	model.EdgeSubgoal: "preliminaries", model.EdgeNeeds: "preliminaries", model.EdgeProgress: "progresses",
	model.EdgeSolution: "solution.ref", model.EdgePremise: "hypothesis", model.EdgeSub: "preliminaries",
	model.EdgeCites: "proof.ref",
}

// references reports dangling references, cycles and orphans.
func (c *checker) references() {
	broken := map[string]bool{}
	for _, b := range c.snap.Broken {
		if b.ID != "" {
			broken[b.ID] = true
		}
	}
	for _, e := range c.graph.Dangling {
		why := "which does not exist"
		if broken[e.To] {
			why = "whose file cannot be read"
		}
		c.add(SeverityError, objectRelPath(e.From), e.From, "%s names %s, %s", edgeFields[e.Kind], e.To, why)
	}
	for _, cyc := range c.graph.Cycles {
		if len(cyc) == 1 {
			c.add(SeverityError, objectRelPath(cyc[0]), cyc[0], "references itself (a cycle)")
			continue
		}
		c.add(SeverityError, objectRelPath(cyc[0]), cyc[0], "is in a reference cycle with %s", strings.Join(cyc[1:], ", "))
	}
	for _, id := range c.graph.Orphans {
		c.add(SeverityWarning, objectRelPath(id), id, "nothing references it (did an agent stop between creating and linking it?)")
	}
}

// config checks config.json and that no counter is behind an ID already on disk.
func (c *checker) config() {
	if c.snap.Config == nil {
		for _, b := range c.snap.Broken {
			if b.Path == ConfigFile {
				c.add(SeverityError, ConfigFile, "", "%s", b.Reason)
				return
			}
		}
		c.add(SeverityError, ConfigFile, "", "missing: no new ID can be issued (referee init sets up a folder)")
		return
	}
	for _, kind := range []string{model.KindProblem, model.KindStatement, model.KindExperience, model.KindChange} {
		last, ok := c.snap.Config.Last[kind]
		if !ok {
			c.add(SeverityError, ConfigFile, "", "no %q counter (the last %s ID issued)", kind, model.KindName(kind))
			continue
		}
		highest, where := c.highestOnDisk(kind)
		if highest != "" && model.CompareIDs(last, highest) < 0 {
			c.add(SeverityError, ConfigFile, highest, "the %q counter is %s but %s exists: new %s IDs would collide with it (set the counter to %s)",
				kind, last, where, model.KindName(kind), highest)
		}
	}
}

// highestOnDisk is the highest ID of a kind that has a file (objects) or a backup folder
// (changes), and where it is.
func (c *checker) highestOnDisk(kind string) (id, where string) {
	sub := HistoryDir
	switch kind {
	case model.KindProblem:
		sub = ProblemDir
	case model.KindStatement:
		sub = StatementDir
	case model.KindExperience:
		sub = ExperienceDir
	}
	if isLink(c.dir, sub) {
		return "", ""
	}
	entries, err := os.ReadDir(filepath.Join(c.dir, sub))
	if err != nil {
		return "", ""
	}
	for _, e := range entries {
		name := e.Name()
		if kind != model.KindChange {
			if !strings.HasSuffix(name, ".json") {
				continue
			}
			name = strings.TrimSuffix(name, ".json")
		}
		if kind == model.KindChange && !e.IsDir() {
			continue // a backup folder is a folder: files() notes anything else
		}
		if model.ValidID(name, kind) && (id == "" || model.CompareIDs(name, id) > 0) {
			id = name
			where = sub + "/" + e.Name()
		}
	}
	if kind == model.KindChange && where != "" {
		where += "/"
	}
	return id, where
}

var oneLineSyntax = regexp.MustCompile(`^line 1 \(byte (\d+)\):`)

// log checks every line of history/log.jsonl and the backups the changes promise. It
// streams the log (eachLogEntry), holding 8 bytes per change to tell a change ID used
// twice: the IDs whose hash came twice are read again in a second pass, which finds
// the duplicates and the line of each one's first use.
func (c *checker) log() {
	missing := func() {
		if _, err := os.Lstat(filepath.Join(c.dir, filepath.FromSlash(LogFile))); errors.Is(err, fs.ErrNotExist) &&
			len(c.snap.Problems)+c.snap.Statements.Len() > 0 {
			c.add(SeverityWarning, LogFile, "", "missing: no change can be rewound")
		}
	}
	if isLink(c.dir, HistoryDir) { // Load reported it
		missing()
		return
	}
	f, st, err := openLogFile(c.dir)
	if err == nil && st.Size > MaxLogSize {
		f.Close()
		err = fmt.Errorf("is %d bytes, more than the %d a log may have", st.Size, int64(MaxLogSize))
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			missing()
		} else {
			c.add(SeverityError, LogFile, "", "%s", unwrapPath(err).Error())
		}
		return
	}
	defer f.Close()
	var counter string
	if c.snap.Config != nil {
		counter = c.snap.Config.Last[model.KindChange]
	}
	// The findings by line: a duplicate (found in the second pass) comes first on its
	// line, as a single pass found it.
	type lineFinding struct {
		line int
		dup  bool
		f    Finding
	}
	var found []lineFinding
	// At most maxLogFindings of each kind are listed, the rest counted: a log of
	// millions of changes whose backups are gone is one warning per change.
	var more [logKinds]int
	add := func(kind, line int, dup bool, sev, object, format string, args ...any) {
		if more[kind]++; more[kind] > maxLogFindings {
			return
		}
		found = append(found, lineFinding{line, dup, Finding{Severity: sev, Path: LogFile, Object: object, Msg: fmt.Sprintf(format, args...)}})
	}
	seed := maphash.MakeSeed()
	var hashes []uint64
	err = eachLogEntry(f, st.Size, func(e model.LogEntry) {
		if e.Err != "" {
			// A log line is one JSON document on one line: drop the parser's "line 1".
			msg := oneLineSyntax.ReplaceAllString(e.Err, "byte $1:")
			add(logUnparsed, e.Line, false, SeverityError, e.ID, "line %d does not parse: %s", e.Line, msg)
			return
		}
		hashes = append(hashes, maphash.String(seed, e.ID))
		if counter != "" && model.CompareIDs(e.ID, counter) > 0 {
			add(logBeyond, e.Line, false, SeverityError, e.ID, "line %d: %s is beyond the config.json counter %s: the next change would reuse an ID", e.Line, e.ID, counter)
		}
		for _, list := range [][]string{e.Creation, e.Modification} {
			for _, id := range list {
				if !model.ValidID(id, "") || objectFile(id) == "" {
					add(logBadID, e.Line, false, SeverityError, e.ID, "line %d: %q is not a problem, statement or experience ID", e.Line, id)
				}
			}
		}
		for _, id := range e.Modification {
			if !model.ValidID(id, "") || objectFile(id) == "" {
				continue
			}
			backup := HistoryDir + "/" + e.ID + "/" + id + ".json"
			if info, err := os.Lstat(filepath.Join(c.dir, filepath.FromSlash(backup))); err != nil || !info.Mode().IsRegular() {
				add(logNoBackup, e.Line, false, SeverityWarning, e.ID, "line %d: %s modified %s but %s is missing, so it cannot be rewound", e.Line, e.ID, id, backup)
			}
		}
	})
	slices.Sort(hashes)
	twice := map[uint64]bool{}
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			twice[hashes[i]] = true
		}
	}
	hashes = nil
	if err == nil && len(twice) > 0 {
		seen := map[string]int{}
		err = eachLogEntry(f, st.Size, func(e model.LogEntry) { // the same bytes: agents only append
			if e.Err != "" || !twice[maphash.String(seed, e.ID)] {
				return
			}
			if first, dup := seen[e.ID]; dup {
				add(logDuplicate, e.Line, true, SeverityError, e.ID, "line %d: %s is also the change on line %d", e.Line, e.ID, first)
			} else {
				seen[strings.Clone(e.ID)] = e.Line
			}
		})
		slices.SortStableFunc(found, func(a, b lineFinding) int {
			if a.line != b.line {
				return a.line - b.line
			}
			if a.dup != b.dup {
				if a.dup {
					return -1
				}
				return 1
			}
			return 0
		})
	}
	if err != nil {
		c.add(SeverityError, LogFile, "", "cannot be read: %s", unwrapPath(err).Error())
	}
	for _, lf := range found {
		c.out = append(c.out, lf.f)
	}
	for kind, what := range [logKinds]string{
		logUnparsed:  "lines do not parse",
		logDuplicate: "lines repeat a change ID",
		logBeyond:    "lines name a change beyond the config.json counter",
		logBadID:     "IDs in the lines are not problem, statement or experience IDs",
		logNoBackup:  "backups of modified objects are missing",
	} {
		if n := more[kind] - maxLogFindings; n > 0 {
			sev := SeverityError
			if kind == logNoBackup {
				sev = SeverityWarning
			}
			c.add(sev, LogFile, "", "%d more %s (the first %d are listed)", n, what, maxLogFindings)
		}
	}
}

// maxLogFindings is how many findings of one kind check lists for the log.
const maxLogFindings = 100

// The kinds of the log's findings, for maxLogFindings.
const (
	logUnparsed = iota
	logDuplicate
	logBeyond
	logBadID
	logNoBackup
	logKinds
)

func checkSortedIDs[V any](m map[string]V) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, model.CompareIDs)
	return ids
}

// compareFindings orders errors first, then by path (object files in ID order), then by
// object; findings that tie keep the order they were found in.
func compareFindings(a, b Finding) int {
	if a.Severity != b.Severity {
		if a.Severity == SeverityError {
			return -1
		}
		if b.Severity == SeverityError {
			return 1
		}
		return strings.Compare(a.Severity, b.Severity)
	}
	if c := comparePaths(a.Path, b.Path); c != 0 {
		return c
	}
	return model.CompareIDs(a.Object, b.Object)
}

func comparePaths(a, b string) int {
	da, na, _ := strings.Cut(a, "/")
	db, nb, _ := strings.Cut(b, "/")
	if da != db || strings.Contains(na, "/") || strings.Contains(nb, "/") {
		return strings.Compare(a, b)
	}
	ia, ib := strings.TrimSuffix(na, ".json"), strings.TrimSuffix(nb, ".json")
	if model.ValidID(ia, "") && model.ValidID(ib, "") {
		return model.CompareIDs(ia, ib)
	}
	return strings.Compare(a, b)
}
