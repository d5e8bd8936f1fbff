package store

import (
	"strings"
	"testing"
)

func TestSkillDocCoversTheRegistry(t *testing.T) {
	for _, s := range Skills {
		doc := SkillDoc(s)
		if !strings.HasPrefix(doc, "---\nname: "+s.Name+"\ndescription: \"") {
			t.Errorf("%s: front matter:\n%s", s.Name, doc[:min(len(doc), 200)])
		}
		sample := SampleCommand(s)
		for _, want := range []string{s.When, s.Agents, s.Changes, sample, "## Parameters", "## Example", "## What it changes", "--output json", "Exit codes"} {
			if !strings.Contains(doc, want) {
				t.Errorf("%s: SKILL.md lacks %q", s.Name, want)
			}
		}
		if !strings.HasPrefix(sample, "referee skill "+s.Name+" \\\n  --") {
			t.Errorf("%s: sample %q", s.Name, sample)
		}
		for _, p := range s.Params {
			if !strings.Contains(doc, "`--"+p.Flag()+" "+ParamMetavar(p)+"`") || !strings.Contains(doc, "`"+p.Name+"`") {
				t.Errorf("%s: SKILL.md does not document %s", s.Name, p.Name)
			}
			switch {
			case p.Kind == ParamSubStatements:
				if !strings.Contains(sample, "--params - <<'EOF'\n{\""+p.Name+"\": [") || !strings.HasSuffix(sample, "\n]}\nEOF") {
					t.Errorf("%s: sample lacks the %s heredoc:\n%s", s.Name, p.Name, sample)
				}
			case p.Required && !strings.Contains(sample, "--"+p.Flag()+" "):
				t.Errorf("%s: sample lacks required --%s", s.Name, p.Flag())
			case p.Kind == ParamInt && !p.Required && strings.Contains(sample, "--"+p.Flag()+" "):
				t.Errorf("%s: sample has optional number --%s", s.Name, p.Flag())
			}
			for _, v := range sampleList(p) {
				if len(p.Enum) > 0 && !strings.Contains(strings.Join(p.Enum, "|"), v) {
					t.Errorf("%s: sample %q for %s is not allowed", s.Name, v, p.Name)
				}
			}
		}
	}
}

func TestSkillDocQuoting(t *testing.T) {
	if got := yamlQuote(`a "b" \ c` + "\n\x01"); got != `"a \"b\" \\ c\n\u0001"` {
		t.Errorf("yamlQuote = %s", got)
	}
	for in, want := range map[string]string{
		"s-007":          "s-007",
		"two words":      "'two words'",
		"Alice's role":   `'Alice'\''s role'`,
		"":               "''",
		"$(rm -rf /)":    "'$(rm -rf /)'",
		"(s-001) a text": "'(s-001) a text'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
