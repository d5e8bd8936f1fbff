// Package skillinstall puts referee into the agents' repository and takes it out again. It
// merges their SKILL.md files — every line of their guidance kept, only the commands that
// call their scripts replaced by the equivalent referee call — adds the skills they lack,
// adds referee to .mcp.json, and keeps every original so that uninstall restores them
// byte for byte.
package install

import (
	"strconv"
	"strings"

	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
)

// Marker is the one line a SKILL.md of theirs carries once merged, below its front matter.
const Marker = "<!-- referee skills install: referee wrote the commands in this file that call it; every other line is the agents' own (referee skills uninstall restores their file) -->"

// GeneratedMarker is the one line of a SKILL.md referee wrote whole, for a skill the agents
// did not have.
const GeneratedMarker = "<!-- referee skills install: referee wrote this file, for a skill the agents did not have (referee skills uninstall removes it) -->"

// merger holds what one merge needs.
type merger struct {
	skill *skill.Skill // the registry's skill
	name  string       // the name the agents call it by (their folder)
	cmd   string       // the command the agents run, usually "referee"
	tr    translator
}

// Merge rewrites the agents' SKILL.md of a skill: their lines stay as they are except
// the commands that call src/state.py or src/prob.py (and the words naming those
// scripts), which become the referee call with the same parameters. name is the name
// the agents give the skill; cmd the command they run. It returns the merged text and
// the number of script calls replaced, or an *unmapped error saying why the file is
// better left as it is.
func Merge(s *skill.Skill, name, original, cmd string) (string, int, error) {
	tr, ok := translators[s.Name]
	if !ok {
		return "", 0, unmappedf("referee does not translate the skill %s", s.Name)
	}
	m := &merger{skill: s, name: name, cmd: cmd, tr: tr}
	return m.merge(original)
}

type block struct {
	open, close int // line indexes of the fences
	script      bool
	calls       []*call
}

func (m *merger) merge(text string) (string, int, error) {
	eol := "\n"
	if strings.Contains(text, "\r\n") {
		eol = "\r\n"
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for _, l := range lines {
		if l == Marker || l == GeneratedMarker {
			return "", 0, unmappedf("referee already installed it")
		}
	}

	// The front matter, the code blocks and the heading above each.
	fmEnd := -1
	start := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			if strings.TrimSpace(lines[i]) == "---" {
				fmEnd = i
				break
			}
		}
		start = fmEnd + 1
	}
	var blocks []*block
	inBlock := map[int]*block{}
	heading := ""
	for i := start; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if strings.HasPrefix(t, "#") {
			heading = t
		}
		if !strings.HasPrefix(t, "```") {
			continue
		}
		b := &block{open: i, close: len(lines)}
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
				b.close = j
				break
			}
		}
		body := lines[i+1 : min(b.close, len(lines))]
		if patterns().scriptRef.MatchString(strings.Join(body, "\n")) {
			b.script = true
			calls, err := parseBlock(body, len(blocks), heading)
			if err != nil {
				return "", 0, err
			}
			b.calls = calls
		}
		for j := b.open; j <= b.close && j < len(lines); j++ {
			inBlock[j] = b
		}
		blocks = append(blocks, b)
		i = b.close
	}

	// Group the calls and translate each group.
	var all []*call
	for _, b := range blocks {
		all = append(all, b.calls...)
	}
	if len(all) == 0 {
		mentions := false
		for _, l := range lines {
			mentions = mentions || patterns().scriptRef.MatchString(l)
		}
		if !mentions {
			return "", 0, unmappedf("it calls none of their scripts")
		}
	}
	var groups []group
	var g group
	for _, c := range all {
		if c.isCreate() {
			if !m.tr.creates {
				return "", 0, unmappedf("src/%s.py without --id creates an object, which %s does not", c.script, m.name)
			}
			g.creates = append(g.creates, c)
			continue
		}
		g.update = c
		groups = append(groups, g)
		g = group{}
	}
	if len(g.creates) > 0 {
		groups = append(groups, g)
	}
	rendered := map[int][]refCall{} // block → the referee calls it shows
	done := map[int]bool{}          // block → a later step of a call shown above
	for _, g := range groups {
		calls, err := m.tr.do(g)
		if err != nil {
			return "", 0, err
		}
		members := append(append([]*call{}, g.creates...), g.update)
		first := -1
		for _, c := range members {
			if c == nil {
				continue
			}
			if f := c.unused(); f != nil {
				return "", 0, unmappedf("src/%s.py --%s: %s has no parameter for it", c.script, f.name, m.name)
			}
			if first < 0 {
				first = c.block
			} else if c.block != first {
				done[c.block] = true
			}
		}
		rendered[first] = append(rendered[first], calls...)
	}

	// Write the file again.
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i == fmEnd || (fmEnd < 0 && i == 0) {
			if fmEnd < 0 {
				out = append(out, Marker)
			}
			if i == fmEnd {
				fm, err := m.prose(l)
				if err != nil {
					return "", 0, err
				}
				out = append(out, fm, Marker)
				continue
			}
		}
		b := inBlock[i]
		if b == nil || !b.script {
			if b != nil { // a code block of theirs that runs no script: as it is
				out = append(out, l)
				continue
			}
			p, err := m.prose(l)
			if err != nil {
				return "", 0, err
			}
			out = append(out, p)
			continue
		}
		// A block that ran their scripts: the fences stay, the body is referee's.
		idx := blockIndex(blocks, b)
		out = append(out, lines[b.open])
		if rc := rendered[idx]; len(rc) > 0 {
			for k, c := range rc {
				if k > 0 {
					out = append(out, "")
				}
				out = append(out, m.cli(c.args)...)
			}
		} else if done[idx] {
			out = append(out, "# nothing more to run: the "+m.cmd+" skill "+m.name+" call above did this step too, in the same change")
		}
		if b.close < len(lines) {
			out = append(out, lines[b.close])
		}
		i = b.close
		rc := rendered[idx]
		if len(rc) > 0 {
			out = append(out, "", m.mcpLine(rc[0].args))
		}
		// Their "Output: `Updated s-001 …`" below the block is the script's answer.
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[j]), "Output:") {
			if len(rc) > 0 {
				out = append(out, lines[i+1:j]...)
				out = append(out, "Output: `"+m.outcome(rc[0])+"`")
				i = j
			} else {
				// A later step prints nothing of its own: their line goes, the blank lines stay.
				out = append(out, lines[i+1:j]...)
				i = j
				if j+1 < len(lines) && strings.TrimSpace(lines[j+1]) == "" {
					i++ // not two blank lines where one was
				}
			}
		}
	}
	n := len(all)
	return strings.Join(out, eol), n, nil
}

func blockIndex(blocks []*block, b *block) int {
	for i, x := range blocks {
		if x == b {
			return i
		}
	}
	return -1
}

// prose replaces, in a line of their text, the words naming their scripts by the
// referee call, and their script's flags in `code` by referee's.
func (m *merger) prose(line string) (string, error) {
	if !patterns().scriptRef.MatchString(line) && !strings.Contains(line, "`--") {
		return line, nil
	}
	var err error
	line = patterns().inlineCode.ReplaceAllStringFunc(line, func(span string) string {
		inner := span[1 : len(span)-1]
		switch {
		case patterns().bareScript.MatchString(inner):
			return "`" + m.cmd + " skill " + m.name + "`"
		case strings.HasPrefix(inner, "--"):
			r, e := m.flagSpan(inner)
			if e != nil && err == nil {
				err = e
			}
			return "`" + r + "`"
		case patterns().scriptRef.MatchString(inner):
			if err == nil {
				err = unmappedf("the text names %s in a way referee does not translate", inner)
			}
		}
		return span
	})
	if err != nil {
		return "", err
	}
	line = patterns().proseScript.ReplaceAllString(line, m.cmd+" skill "+m.name)
	if ref := patterns().scriptRef.FindString(line); ref != "" {
		return "", unmappedf("the text names %s, which referee has no skill for", ref)
	}
	return line, nil
}

// flagSpan translates a script flag quoted in their text, such as
// `--hypothesis Overwrite "(s-xxx)"`, into the referee parameter it became.
func (m *merger) flagSpan(span string) (string, error) {
	words, err := shellWords(span)
	if err != nil || len(words) == 0 {
		return span, nil
	}
	name := strings.TrimPrefix(words[0], "--")
	if p, ok := m.skill.Param(strings.ReplaceAll(name, "-", "_")); ok && p.Flag() == name {
		return span, nil // already referee's
	}
	if name != "hypothesis" || m.tr.hyp == "" {
		if contains(knownFlags["state"], name) || contains(knownFlags["prob"], name) {
			return "", unmappedf("the text quotes the script flag %s, which referee does not translate here", words[0])
		}
		return span, nil
	}
	vals := words[1:]
	if len(vals) > 0 && (vals[0] == "Overwrite" || vals[0] == "Append") {
		vals = vals[1:]
	}
	if m.tr.hyp == "sub_statements" {
		return `{"claim": …, "premises": ` + string(pyjson.EncodeLine(pyjson.Strs(vals))) + `}`, nil
	}
	p, _ := m.skill.Param(m.tr.hyp)
	parts := []string{}
	for _, v := range vals {
		parts = append(parts, "--"+p.Flag()+" "+dq(v))
	}
	return strings.Join(parts, " "), nil
}

// cli is the referee command of a call, one flag a line as their samples have it.
func (m *merger) cli(a skill.Args) []string {
	parts := []string{m.cmd + " skill " + m.name}
	var heredoc []string
	for _, p := range m.skill.Params {
		v, ok := a[p.Name]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case []skill.SubStatement:
			heredoc = append(heredoc, `{"`+p.Name+`": [`)
			for i, sub := range x {
				item := pyjson.Obj(pyjson.M("claim", pyjson.Str(sub.Claim)), pyjson.M("premises", pyjson.Strs(nonNil(sub.Premises))))
				sep := ","
				if i == len(x)-1 {
					sep = ""
				}
				heredoc = append(heredoc, "  "+string(pyjson.EncodeLine(item))+sep)
			}
			heredoc = append(heredoc, "]}")
		case []string:
			for _, s := range x {
				parts = append(parts, "--"+p.Flag()+" "+dq(s))
			}
		case int:
			parts = append(parts, "--"+p.Flag()+" "+strconv.Itoa(x))
		case string:
			parts = append(parts, "--"+p.Flag()+" "+dq(x))
		}
	}
	if heredoc != nil {
		parts = append(parts, "--params - <<'EOF'")
	}
	var out []string
	for i, p := range parts {
		switch {
		case i == len(parts)-1:
			out = append(out, indent(i)+p)
		default:
			out = append(out, indent(i)+p+" \\")
		}
	}
	return append(out, heredoc...)
}

func indent(i int) string {
	if i == 0 {
		return ""
	}
	return "  "
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// mcpLine names the MCP tool of the call and its arguments.
func (m *merger) mcpLine(a skill.Args) string {
	var members []pyjson.Member
	for _, p := range m.skill.Params {
		v, ok := a[p.Name]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case []skill.SubStatement:
			arr := pyjson.Value{Kind: pyjson.Array}
			for _, sub := range x {
				arr.Arr = append(arr.Arr, pyjson.Obj(pyjson.M("claim", pyjson.Str(sub.Claim)), pyjson.M("premises", pyjson.Strs(nonNil(sub.Premises)))))
			}
			members = append(members, pyjson.M(p.Name, arr))
		case []string:
			members = append(members, pyjson.M(p.Name, pyjson.Strs(x)))
		case int:
			members = append(members, pyjson.M(p.Name, pyjson.Int(x)))
		case string:
			members = append(members, pyjson.M(p.Name, pyjson.Str(x)))
		}
	}
	return "Through MCP (`referee mcp`, in .mcp.json) the same call is the tool `mcp__referee__" + m.name + "` with `" +
		string(pyjson.EncodeLine(pyjson.Obj(members...))) + "`."
}

// outcome is the line referee prints for the call, with their placeholder IDs.
func (m *merger) outcome(c refCall) string {
	r := store.Result{Change: "l-XXX", Skill: m.skill.Name, Actor: "agent", Created: c.created, Modified: c.modified}
	return r.Change + " " + r.Skill + " by " + r.Actor + ": " + r.Objects()
}

// dq quotes a value as their samples do, in double quotes, unless it needs none.
func dq(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/:=+@") == "" {
		return s
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
	return `"` + r.Replace(s) + `"`
}
