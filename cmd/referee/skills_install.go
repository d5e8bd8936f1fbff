package main

import (
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"referee/install"
)

const defaultBackupDir = ".referee/skills-backup"

// skillsInstallCommand is `referee skills install`, run in the agents' repository.
func (a *app) skillsInstallCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "install",
		Short: "Make the agents' skills call referee: their SKILL.md files merged, originals kept",
		Long: "Run in the agents' repository. Each SKILL.md of theirs keeps every line of its guidance; only the\n" +
			"commands that call their scripts (src/state.py, src/prob.py) become the referee call with the same\n" +
			"parameters. A skill they lack is added, a skill they name differently is installed under their name,\n" +
			"referee's MCP server is added to .mcp.json (its other servers kept). The originals are kept in\n" +
			"--backup-dir for `referee skills uninstall`. Running it again changes nothing unless referee's\n" +
			"commands, or their files, changed. A SKILL.md referee cannot translate is left as it is and named.",
		Args: noArgs,
	}
	f := cmd.Flags()
	dir := f.String("dir", ".claude/skills", "the skills folder of the agents")
	mcpConfig := f.String("mcp-config", ".mcp.json", "write referee's MCP server entry into this file, keeping its other servers (\"\" skips it)")
	contents := f.String("contents", "./contents", "the contents folder the MCP entry serves")
	backup := f.String("backup-dir", defaultBackupDir, "where the originals and the manifest are kept")
	agent := f.String("agent-command", "", "the command the SKILL.md files call (default: referee-agent when the shell finds that agent build, else referee)")
	dry := f.Bool("dry-run", false, "print the unified diff of every file it would change, and change nothing")
	output := addOutputFlag(cmd)
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		command := strings.TrimSpace(*agent)
		if command == "" {
			if cmd.Flags().Changed("agent-command") {
				return usagef("--agent-command: empty")
			}
			command = defaultAgentCommand()
		}
		opts := install.Options{SkillsDir: *dir, MCPConfig: *mcpConfig, Contents: *contents, BackupDir: *backup, Command: command}
		plan, err := install.PlanInstall(opts)
		if err != nil {
			return err
		}
		return a.finish(plan, *dry, *output, *backup, false, command)
	}
	return cmd
}

// skillsUninstallCommand is `referee skills uninstall`: what install did, undone.
func (a *app) skillsUninstallCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "uninstall",
		Short: "Put back the agents' files as they were before referee skills install",
		Long: "Run where install ran. Every file install changed gets its original back, byte for byte; every file\n" +
			"it added is removed, and referee's entry leaves .mcp.json (its other servers kept). A file changed\n" +
			"since install is left as it is and named (--force restores it all the same).",
		Args: noArgs,
	}
	f := cmd.Flags()
	backup := f.String("backup-dir", defaultBackupDir, "where install kept the originals")
	force := f.Bool("force", false, "restore files changed since install too")
	dry := f.Bool("dry-run", false, "print the unified diff of every file it would change, and change nothing")
	output := addOutputFlag(cmd)
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		plan, err := install.PlanUninstall(install.Options{BackupDir: *backup, Force: *force})
		if err != nil {
			return err
		}
		return a.finish(plan, *dry, *output, *backup, true, "")
	}
	return cmd
}

type installReport struct {
	DryRun   bool              `json:"dry_run"`
	Changes  []*install.Change `json:"changes"`
	Warnings []string          `json:"warnings"`
	Note     string            `json:"agent_binary_note,omitempty"`
}

func (a *app) finish(plan *install.Plan, dry bool, output, backup string, uninstall bool, agent string) error {
	note := ""
	if !uninstall {
		note = agentBinaryNote(agent)
	}
	if !dry {
		if err := plan.Apply(); err != nil {
			return err
		}
	}
	if output == "json" {
		r := installReport{DryRun: dry, Changes: plan.Changes, Warnings: plan.Warnings, Note: note}
		if r.Warnings == nil {
			r.Warnings = []string{}
		}
		return a.writeJSON(r)
	}
	if dry {
		fmt.Fprint(a.stdout, plan.Diff())
	}
	for _, c := range plan.Changes {
		line := c.Action + " " + c.Path
		if dry {
			line = "would be " + line
		}
		if c.Note != "" && c.Action != install.Unchanged {
			line += ": " + c.Note
		}
		fmt.Fprintln(a.stdout, line)
	}
	for _, w := range plan.Warnings {
		fmt.Fprintln(a.stdout, "warning: "+w)
	}
	switch {
	case dry:
		fmt.Fprintln(a.stdout, "(dry run: nothing written)")
	case !uninstall:
		fmt.Fprintf(a.stdout, "originals kept in %s; referee skills uninstall puts them back\n", backup)
	}
	fmt.Fprint(a.stdout, note)
	return nil
}

// agentBinaryNote is what install adds when the command the SKILL.md files call is not the
// agent build. The agents run a process per skill call, and the build with the workbench
// spends most of its start in its rendering libraries' package init (chroma's style and
// lexer tables, goldmark), which Go runs before main and cannot defer; the agent build
// (-tags noui,nomcp) leaves them out. The note is one command that builds it and installs
// again with it.
func agentBinaryNote(command string) string {
	if isAgentBuild(command) {
		return ""
	}
	src := "<referee's source folder>"
	if _, file, _, ok := runtime.Caller(0); ok {
		root := filepath.Dir(filepath.Dir(filepath.Dir(file)))
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			src = root
		}
	}
	bin := "$HOME/go/bin"
	if exe, err := os.Executable(); err == nil {
		bin = filepath.Dir(exe)
	}
	target := filepath.Join(bin, agentCommandName)
	again := "referee skills install --agent-command " + shq(target)
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if filepath.Clean(dir) == bin {
			again = "referee skills install" // it finds referee-agent on the PATH
		}
	}
	return fmt.Sprintf("note: the agents start `%s skill …` once per call; give them the agent build, which starts\n"+
		"note: several times faster (no workbench): build it and install again with it, in one command:\n"+
		"note:   (cd %s && CGO_ENABLED=0 go build -tags noui,nomcp -o %s ./cmd/referee) && %s\n",
		command, shq(src), shq(target), again)
}

// agentCommandName is the name the docs and the note give the agent build.
const agentCommandName = "referee-agent"

// defaultAgentCommand is what the SKILL.md files call when --agent-command is not given:
// `referee` if the shell finds an agent build under that name, else referee-agent if it
// finds that one, else `referee` (and install's note says how to build the agent one).
func defaultAgentCommand() string {
	if !isAgentBuild("referee") && isAgentBuild(agentCommandName) {
		return agentCommandName
	}
	return "referee"
}

// isAgentBuild reports whether command, as the shell finds it, is a referee built with
// -tags noui (its build information says so).
func isAgentBuild(command string) bool {
	path, err := exec.LookPath(command)
	if err != nil {
		return false
	}
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-tags" {
			for _, t := range strings.Split(s.Value, ",") {
				if t == "noui" {
					return true
				}
			}
		}
	}
	return false
}

func shq(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+@") == "" {
		return s
	}
	if strings.HasPrefix(s, "<") || strings.HasPrefix(s, "$HOME") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
