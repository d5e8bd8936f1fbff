package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
)

// commonSkillFlags are the flags every skill command has besides its parameters.
var commonSkillFlags = []string{"contents", "actor", "output", "expect-version", "params", "dry-run", "help"}

// skillCommand is `referee skill <name>`, with a subcommand for each of the skills (all
// of the registry, or only the one a command line calls: see rootCommand).
func (a *app) skillCommand(skills ...*skill.Skill) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skill <name> [flags]",
		Short: "Apply one of the agents' skills as a change batch",
		Args:  cobra.ArbitraryArgs,
		// Flags of an unknown skill must not hide the real error, the unknown skill.
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown skill %q (referee skills list shows them)", args[0])
			}
			a.printAllSkillUsage()
			return nil
		},
	}
	cmd.SetHelpFunc(func(*cobra.Command, []string) { a.printAllSkillUsage() })
	for _, s := range skills {
		cmd.AddCommand(a.oneSkillCommand(s))
	}
	return cmd
}

// calledSkill is the skill a command line `skill <name-or-alias> …` calls, or nil.
func calledSkill(args []string) *skill.Skill {
	if len(args) < 2 || args[0] != "skill" {
		return nil
	}
	s, _ := skill.Lookup(args[1])
	return s
}

func (a *app) printAllSkillUsage() {
	fmt.Fprint(a.stdout, "Usage: referee skill <name> [flags]\n\n"+
		"Applies one of the agents' skills to the contents folder as one change batch.\n"+
		"Each skill's parameters are flags; `referee skill <name> --help` shows one skill.\n\n")
	for i, s := range skill.Skills {
		if i > 0 {
			fmt.Fprintln(a.stdout)
		}
		fmt.Fprint(a.stdout, paramSummary(s))
	}
	fmt.Fprint(a.stdout, "\n"+commonFlagsHelp)
}

// paramSummary is a skill's name, summary and parameters in a few lines.
func paramSummary(s *skill.Skill) string {
	var b strings.Builder
	name := s.Name
	if len(s.Aliases) > 0 {
		name += " (also " + strings.Join(s.Aliases, ", ") + ")"
	}
	fmt.Fprintf(&b, "%s: %s\n", name, s.Summary)
	width := 0
	for _, p := range s.Params {
		width = max(width, len(p.Flag())+len(skill.ParamMetavar(p))+3)
	}
	for _, p := range s.Params {
		req := "optional"
		if p.Required {
			req = "required"
		}
		line := fmt.Sprintf("  %-*s  %s; %s", width, "--"+p.Flag()+" "+skill.ParamMetavar(p), req, p.Help)
		if len(p.Enum) > 0 {
			line += " (one of " + strings.Join(p.Enum, ", ") + ")"
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

const commonFlagsHelp = `Common flags:
  --contents DIR          the contents folder (default ./contents)
  --actor NAME            who makes the change (default $REFEREE_ACTOR, else agent)
  -o, --output text|json  print the change as one line (default) or as JSON
  --expect-version HASH   refuse the change if the skill's target object changed since
                          you read it (its version is in referee show ID --output json)
  --params FILE|-         a JSON object of parameters keyed by their snake_case names
                          (- reads standard input); flags override it
  --dry-run               check and work the change out, print every status it changes and
                          what follows (who is next); write nothing

Exit codes: 0 done; 1 refused (precondition, conflict, a link in the folder), nothing
written; 2 bad usage or input (unknown skill, missing or malformed parameter), nothing
written.
`

// oneSkillCommand makes the command of one skill: a flag per parameter.
func (a *app) oneSkillCommand(s *skill.Skill) *cobra.Command {
	cmd := &cobra.Command{
		Use:     s.Name + " [flags]",
		Aliases: s.Aliases,
		Short:   s.Summary,
		Args:    noArgs,
	}
	f := cmd.Flags()
	for _, p := range s.Params {
		for _, c := range commonSkillFlags {
			if p.Flag() == c {
				panic(fmt.Sprintf("skill %s: parameter %s clashes with the common flag --%s", s.Name, p.Name, c))
			}
		}
		usage := p.Help
		switch p.Kind {
		case skill.ParamStrings, skill.ParamIDs:
			// StringArray, not StringSlice: commas inside texts must survive.
			f.StringArray(p.Flag(), nil, usage)
		default:
			f.String(p.Flag(), "", usage)
		}
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	actor := f.String("actor", "", "who makes the change (default $REFEREE_ACTOR, else agent)")
	expect := f.String("expect-version", "", "refuse the change if the target object changed since you read this version")
	params := f.String("params", "", "a JSON object of parameters keyed by their snake_case names (- reads standard input)")
	dryRun := f.Bool("dry-run", false, "check and work the change out, print what it would write and do to the run; write nothing")
	cmd.SetHelpFunc(func(*cobra.Command, []string) {
		fmt.Fprint(a.stdout, skill.SkillUsage(s)+"\n"+commonFlagsHelp)
	})
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		skillArgs := skill.Args{}
		if f.Changed("params") {
			data, err := a.readParams(*params)
			if err != nil {
				return err
			}
			if skillArgs, err = skill.ArgsFromJSON(s, data); err != nil {
				return usagef("--params: %v", err)
			}
		}
		if err := argsFromFlags(s, f, skillArgs); err != nil {
			return err
		}
		opts, err := options(*actor, *expect)
		if err != nil {
			return err
		}
		if *dryRun {
			p, err := store.Plan(*contents, s, skillArgs, opts)
			if err != nil {
				return err
			}
			return a.printPlanned(s.Name, p, "", *contents, *output)
		}
		res, err := store.Run(*contents, s, skillArgs, opts)
		if err != nil {
			return err
		}
		return a.printResult(res, *output)
	}
	return cmd
}

func (a *app) readParams(path string) ([]byte, error) {
	var (
		data []byte
		err  error
	)
	// Bounded: a proof is at most an object file, and /dev/zero must not fill memory.
	if path == "-" {
		data, err = store.ReadBounded(a.stdin, store.MaxObjectSize, "standard input")
	} else {
		var f *os.File
		if f, err = os.Open(path); err == nil {
			data, err = store.ReadBounded(f, store.MaxObjectSize, path)
			f.Close()
		}
	}
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return nil, usagef("--params: cannot read %s: %v", path, err)
	}
	return data, nil
}

// argsFromFlags puts every flag given on the command line into args, over --params.
func argsFromFlags(s *skill.Skill, f *pflag.FlagSet, args skill.Args) error {
	for _, p := range s.Params {
		if !f.Changed(p.Flag()) {
			continue
		}
		switch p.Kind {
		case skill.ParamStrings, skill.ParamIDs:
			list, _ := f.GetStringArray(p.Flag())
			args[p.Name] = list
		case skill.ParamInt:
			text, _ := f.GetString(p.Flag())
			n, err := strconv.Atoi(strings.TrimSpace(text))
			if err != nil {
				return usagef("--%s: %q is not a whole number", p.Flag(), text)
			}
			args[p.Name] = n
		case skill.ParamSubStatements:
			text, _ := f.GetString(p.Flag())
			v, err := pyjson.Parse([]byte(text))
			if err != nil {
				return usagef("--%s: not valid JSON: %v", p.Flag(), err)
			}
			subs, err := skill.SubStatements(v)
			if err != nil {
				return usagef("--%s: %v", p.Flag(), err)
			}
			args[p.Name] = subs
		default:
			args[p.Name], _ = f.GetString(p.Flag())
		}
	}
	return nil
}

// skillsCommand is `referee skills list|install|uninstall`.
func (a *app) skillsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "skills",
		Short: "List the skills, or install them into the agents' repository (and take them out)",
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the skills with a one-line description",
		Args:  noArgs,
	}
	listOutput := addOutputFlag(list)
	list.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*listOutput); err != nil {
			return err
		}
		return a.listSkills(*listOutput)
	}
	cmd.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 {
			return unknownCommand(cmd, args[0])
		}
		return nil
	}
	cmd.RunE = func(*cobra.Command, []string) error { return a.listSkills("text") }

	cmd.AddCommand(list, a.skillsInstallCommand(), a.skillsUninstallCommand())
	return cmd
}

type skillListItem struct {
	Name    string          `json:"name"`
	Aliases []string        `json:"aliases"`
	Agents  string          `json:"agents"`
	Summary string          `json:"summary"`
	Params  []skillListParm `json:"params"`
}

type skillListParm struct {
	Name     string   `json:"name"`
	Flag     string   `json:"flag"`
	Kind     string   `json:"kind"`
	Required bool     `json:"required"`
	Enum     []string `json:"enum,omitempty"`
	Help     string   `json:"help"`
}

func (a *app) listSkills(output string) error {
	if output == "json" {
		items := []skillListItem{}
		for _, s := range skill.Skills {
			it := skillListItem{Name: s.Name, Aliases: s.Aliases, Agents: s.Agents, Summary: s.Summary, Params: []skillListParm{}}
			if it.Aliases == nil {
				it.Aliases = []string{}
			}
			for _, p := range s.Params {
				it.Params = append(it.Params, skillListParm{Name: p.Name, Flag: "--" + p.Flag(), Kind: skill.ParamKindText(p),
					Required: p.Required, Enum: p.Enum, Help: p.Help})
			}
			items = append(items, it)
		}
		return a.writeJSON(items)
	}
	width := 0
	for _, s := range skill.Skills {
		width = max(width, len(s.Name))
	}
	for _, s := range skill.Skills {
		line := fmt.Sprintf("%-*s  %s", width, s.Name, s.Summary)
		if len(s.Aliases) > 0 {
			line += " (also " + strings.Join(s.Aliases, ", ") + ")"
		}
		fmt.Fprintln(a.stdout, line)
	}
	return nil
}
