package install

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// The agents' skills call their Python scripts, src/state.py and src/prob.py, in shell
// code blocks. This file reads those calls: shell words, the script, its flags.

type patternSet struct {
	scriptRef, scriptWord, inlineCode, bareScript, proseScript, sentence, placeholderID *regexp.Regexp
}

// patterns are compiled on first use: every `referee skill` process links this package,
// and only install needs them.
var patterns = sync.OnceValue(func() *patternSet {
	return &patternSet{
		scriptRef:     regexp.MustCompile(`src/[A-Za-z0-9_.-]+\.py\b`), // a script of theirs, named anywhere
		scriptWord:    regexp.MustCompile(`^(?:.*/)?src/([A-Za-z0-9_.-]+)\.py$`),
		inlineCode:    regexp.MustCompile("`[^`\n]*`"),
		bareScript:    regexp.MustCompile(`^(?:venv-python\s+|python3?\s+)?src/(?:state|prob)\.py$`),
		proseScript:   regexp.MustCompile(`(?:venv-python\s+|python3?\s+)?src/(?:state|prob)\.py\b`),
		sentence:      regexp.MustCompile(`(?i)\bsentence \d+`),
		placeholderID: regexp.MustCompile(`^[a-z]-[A-Z]{3}$`), // s-XXX, p-XXX
	}
})

// knownFlags are the flags of the two scripts (their argparse definitions).
var knownFlags = map[string][]string{
	"state": {"id", "type", "conclusion", "status", "reliability", "proof.full", "hypothesis", "proof.cot",
		"proof.ref", "preliminaries", "progresses", "validation.issues", "validation.responses"},
	"prob": {"id", "status", "priority", "summary", "solution.full", "objectives", "hypothesis",
		"preliminaries", "progresses", "solution.cot", "solution.ref"},
}

// call is one command line running a script of theirs.
type call struct {
	script  string // "state" or "prob"
	flags   []*flag
	block   int    // index of the code block that holds it
	heading string // the nearest heading above the block
}

type flag struct {
	name   string
	mode   string // Append or Overwrite, for their list fields; "" otherwise
	values []string
	used   bool
}

// unmapped says why a SKILL.md is left as it is.
type unmapped struct{ reason string }

func (u *unmapped) Error() string { return u.reason }

func unmappedf(format string, args ...any) error {
	return &unmapped{reason: fmt.Sprintf(format, args...)}
}

// get returns the flag with the name, marking it read; nil when absent.
func (c *call) get(name string) *flag {
	for _, f := range c.flags {
		if f.name == name {
			f.used = true
			return f
		}
	}
	return nil
}

// has reports whether the call has the flag, without marking it.
func (c *call) has(name string) bool {
	for _, f := range c.flags {
		if f.name == name {
			return true
		}
	}
	return false
}

// one is the single value of a flag, "" when absent.
func (c *call) one(name string) string {
	if f := c.get(name); f != nil && len(f.values) > 0 {
		return strings.Join(f.values, " ")
	}
	return ""
}

// list is the values of a flag, nil when absent.
func (c *call) list(name string) []string {
	if f := c.get(name); f != nil {
		return f.values
	}
	return nil
}

// allow reads a flag whose effect referee's skill has itself; when values are given, the
// flag's value must be one of them (another value means something referee would not do).
func (c *call) allow(name string, values ...string) error {
	f := c.get(name)
	if f == nil || len(values) == 0 {
		return nil
	}
	v := strings.Join(f.values, " ")
	for _, ok := range values {
		if v == ok {
			return nil
		}
	}
	return unmappedf("src/%s.py --%s %s: the referee skill does not do that", c.script, name, v)
}

// unused is the first flag nothing read, or nil.
func (c *call) unused() *flag {
	for _, f := range c.flags {
		if !f.used {
			return f
		}
	}
	return nil
}

func (c *call) isCreate() bool { return !c.has("id") }

// parseBlock reads the script calls of a code block. A block that also runs something
// else, or that a shell would not parse, cannot be mapped.
func parseBlock(lines []string, block int, heading string) ([]*call, error) {
	// Backslash-newline continues a command.
	var cmds []string
	cur := ""
	for _, l := range lines {
		if strings.HasSuffix(l, `\`) {
			cur += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		cur += l
		cmds = append(cmds, cur)
		cur = ""
	}
	if cur != "" {
		cmds = append(cmds, cur)
	}
	var calls []*call
	for _, cmd := range cmds {
		if t := strings.TrimSpace(cmd); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		words, err := shellWords(cmd)
		if err != nil {
			return nil, unmappedf("a command in a code block: %v", err)
		}
		c, err := parseCall(words)
		if err != nil {
			return nil, err
		}
		c.block, c.heading = block, heading
		calls = append(calls, c)
	}
	return calls, nil
}

// parseCall reads `[interpreter] src/NAME.py --flag [Mode] value … …`.
func parseCall(words []string) (*call, error) {
	i := 0
	for ; i < len(words); i++ {
		if patterns().scriptWord.MatchString(words[i]) {
			break
		}
		switch words[i] {
		case "venv-python", "python", "python3", "uv", "run":
		default:
			return nil, unmappedf("a code block runs %q besides their scripts", strings.Join(words, " "))
		}
	}
	if i == len(words) {
		return nil, unmappedf("a code block runs %q besides their scripts", strings.Join(words, " "))
	}
	name := patterns().scriptWord.FindStringSubmatch(words[i])[1]
	known, ok := knownFlags[name]
	if !ok {
		return nil, unmappedf("it calls src/%s.py, which referee has no skill for", name)
	}
	c := &call{script: name}
	for _, w := range words[i+1:] {
		if strings.HasPrefix(w, "--") {
			n := strings.TrimPrefix(w, "--")
			if !contains(known, n) {
				return nil, unmappedf("src/%s.py --%s: not a flag referee knows", name, n)
			}
			c.flags = append(c.flags, &flag{name: n})
			continue
		}
		if len(c.flags) == 0 {
			return nil, unmappedf("src/%s.py %s: a value before any flag", name, w)
		}
		f := c.flags[len(c.flags)-1]
		if len(f.values) == 0 && f.mode == "" && (w == "Append" || w == "Overwrite") {
			f.mode = w
			continue
		}
		f.values = append(f.values, w)
	}
	return c, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// shellWords splits a command line as a POSIX shell does for the words the agents write:
// blanks separate, '…' is literal, "…" keeps \" \\ \$ \` escapes, \x outside quotes is x.
func shellWords(s string) ([]string, error) {
	var words []string
	var b strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, b.String())
				b.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("an unclosed ' quote")
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("an unclosed \" quote")
			}
			inWord = true
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			inWord = true
		case strings.IndexByte(";&|<>`$", c) >= 0:
			return nil, fmt.Errorf("shell syntax %q that referee does not translate", string(c))
		default:
			b.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, b.String())
	}
	return words, nil
}
