package store

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"referee/model"
	"referee/skill"
)

// Change is one line of the change log as the activity list shows it: who did what to
// which objects, with each object's status before and after, rebuilt from the backups.
type Change struct {
	ID    string `json:"id"`
	Line  int    `json:"line"`  // line number in history/log.jsonl
	At    string `json:"at"`    // RFC 3339; "" on the agents' own lines, which carry no time
	Actor string `json:"actor"` // "" on the agents' own lines
	Skill string `json:"skill"` // "" on the agents' own lines
	// GuessedSkill is the skill the change most likely was, read from what it did (only
	// when the line does not say); GuessedActor the one agent that uses that skill.
	GuessedSkill string               `json:"guessed_skill,omitempty"`
	GuessedActor string               `json:"guessed_actor,omitempty"`
	Reverts      string               `json:"reverts,omitempty"` // an undo: the change it reverts
	Created      []string             `json:"created"`
	Modified     []string             `json:"modified"`
	Deleted      []string             `json:"deleted"`
	Objects      []model.ObjectChange `json:"objects"` // created, then modified, then deleted
	Err          string               `json:"error,omitempty"`
	// Provisional says an object's version after the change is the snapshot's, whose
	// file changed before it could be read again (Version.Changed): the listing for the
	// newer snapshot has this change right, and whoever keeps a listing lists it again.
	Provisional bool `json:"provisional,omitempty"`
	// Unread says only the change's line was read (ActivityLines): who, which skill and
	// which objects as the line names them, without the objects' backups, so no Objects
	// and no guesses.
	Unread bool `json:"-"`
}

// SkillOrGuess is the skill the line names, else the guess marked with "~".
func (c Change) SkillOrGuess() string {
	if c.Skill != "" || c.GuessedSkill == "" {
		return c.Skill
	}
	return "~" + c.GuessedSkill
}

// ActorOrGuess is the actor the line names, else the guess marked with "~".
func (c Change) ActorOrGuess() string {
	if c.Actor != "" || c.GuessedActor == "" {
		return c.Actor
	}
	return "~" + c.GuessedActor
}

// Touches says whether the change created, modified or deleted the object.
func (c Change) Touches(id string) bool {
	return slices.Contains(c.Created, id) || slices.Contains(c.Modified, id) || slices.Contains(c.Deleted, id)
}

// Activity lists every change of the log, oldest first.
func (h *History) Activity() []Change {
	g := h.graph()
	out := make([]Change, 0, len(h.log))
	for i, e := range h.log {
		out = append(out, h.change(i, e, g))
	}
	return out
}

// ActivityFrom lists the changes from index i of Changes on (to follow a growing log).
func (h *History) ActivityFrom(i int) []Change {
	if i >= len(h.log) {
		return nil
	}
	g := h.graph()
	var out []Change
	for j := max(i, 0); j < len(h.log); j++ {
		out = append(out, h.change(j, h.log[j], g))
	}
	return out
}

// ActivityRange lists the changes from index i to index j of Changes (j excluded).
func (h *History) ActivityRange(i, j int) []Change {
	i, j = max(i, 0), min(j, len(h.log))
	if j <= i {
		return nil
	}
	g := h.graph()
	out := make([]Change, 0, j-i)
	for k := i; k < j; k++ {
		out = append(out, h.change(k, h.log[k], g))
	}
	return out
}

// ActivityLines lists the changes from index i to index j of Changes from their lines
// alone (Unread): no backup is read, so it costs the lines, where a whole listing reads
// two backups per object.
func (h *History) ActivityLines(i, j int) []Change {
	i, j = max(i, 0), min(j, len(h.log))
	if j <= i {
		return nil
	}
	out := make([]Change, 0, j-i)
	for _, e := range h.log[i:j] {
		c := lineChange(e)
		c.Unread = true
		out = append(out, c)
	}
	return out
}

// lineChange is what a change's line says.
func lineChange(e model.LogEntry) Change {
	// An undo lists what it removes under "modification" too (for the agents' rewind):
	// here it is a deletion only.
	modified := slices.DeleteFunc(slices.Clone(e.Modification), func(id string) bool { return slices.Contains(e.Deleted, id) })
	return Change{ID: e.ID, Line: e.Line, At: e.At, Actor: e.By, Skill: e.Skill, Err: e.Err,
		Created: nonNil(e.Creation), Modified: nonNil(modified), Deleted: nonNil(e.Deleted), Reverts: e.Reverts}
}

// maxUnknown is how many unusable backups a change's object names (ObjectChange.Unknown).
const maxUnknown = 3

// graph derives the snapshot's graph when a guess first needs it: only an agent's own
// line that creates a statement does, and a whole derive per listing was most of what
// following a run's activity cost.
func (h *History) graph() func() *model.Graph {
	return sync.OnceValue(func() *model.Graph { return model.Derive(h.snap) })
}

func (h *History) change(i int, e model.LogEntry, g func() *model.Graph) Change {
	c := lineChange(e)
	modified := c.Modified
	versions := model.LogVersions(e.Raw) // what the change wrote, when its line says
	add := func(ids []string, action string) {
		for _, id := range ids {
			if !model.ValidID(id, "") || objectFile(id) == "" {
				continue
			}
			var before, after Version
			if action != model.Created {
				before = h.before(id, i)
			}
			if action != model.Deleted {
				after = h.after(id, i)
				c.Provisional = c.Provisional || after.Changed
			}
			oc := model.CompareVersions(id, action, before.Doc, after.Doc)
			if want, ok := versions[id]; ok && after.Exists && after.Version != "" && after.Version != want {
				oc.Outside = h.seenAt(id, i)
			}
			var why []string
			skipped := append(before.Skipped, after.Skipped...)
			for _, b := range skipped[:min(len(skipped), maxUnknown)] {
				why = append(why, b.Path+": "+b.Reason)
			}
			if len(skipped) > maxUnknown { // a run whose backups are gone: each change names them all
				why = append(why, fmt.Sprintf("and %d more", len(skipped)-maxUnknown))
			}
			oc.Unknown = strings.Join(why, "; ")
			c.Objects = append(c.Objects, oc)
		}
	}
	add(e.Creation, model.Created)
	add(modified, model.Modified)
	add(c.Deleted, model.Deleted)
	if c.Objects == nil {
		c.Objects = []model.ObjectChange{}
	}
	if c.Skill == "" {
		c.GuessedSkill = model.GuessSkill(c.Objects, nil)
		if c.GuessedSkill == "" && len(e.Creation) > 0 {
			c.GuessedSkill = model.GuessSkill(c.Objects, g())
		}
		if s, ok := skill.Lookup(c.GuessedSkill); ok && !strings.Contains(s.Agents, ",") {
			c.GuessedActor = s.Agents
		}
	}
	return c
}

// seenAt says where an unlogged edit of id after change i shows: in the backup the next
// change of id made ("before l-042"), else in the file now ("since").
func (h *History) seenAt(id string, i int) string {
	if t := h.changesOf(h.ix.touched, id); firstAfter(t, i) < len(t) {
		return "before " + h.log[t[firstAfter(t, i)]].ID
	}
	return "since"
}

// Activity lists every change in the log of dir, whose snapshot (the folder now) is snap.
func Activity(dir string, snap *model.Snapshot) ([]Change, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, inputf("contents folder %s does not exist (pass --contents)", dir)
	}
	return NewHistory(dir, snap).Activity(), nil
}
