//go:build !noui

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"referee/serve"
	"referee/themes"
	"referee/tui"
)

// serveCommand is `referee serve`: the SSH server (package serve) on one folder, whose
// commands without a terminal are this CLI's, run by served().
func (a *app) serveCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the workbench over SSH: several reviewers on one live run, their keys as names",
		Long: "serve opens an SSH server on one contents folder. `ssh -p 23234 HOST` opens the workbench in\n" +
			"the caller's terminal; `ssh -p 23234 HOST status` (show, log, diff, why, runs, export …) runs the\n" +
			"CLI's command; skill, undo, rewind and branch are for reviewers only. Only the keys in --keys\n" +
			"(reviewers) and --viewers (read only) get in; a key's comment is the person's name, and their\n" +
			"changes are logged under it. Connections, refusals and changes are logged to stderr.",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	listen := cmd.Flags().String("listen", serve.DefaultListen, "the address to listen on (another host than this one must be given explicitly)")
	keys := cmd.Flags().String("keys", "", "the reviewers' keys, an authorized_keys file; each key's comment is the person's name")
	viewers := cmd.Flags().String("viewers", "", "the viewers' keys (read only), an authorized_keys file")
	hostKey := cmd.Flags().String("host-key", "", "the server's private key, made (0600) on first start (default: .referee/ssh_host_ed25519_key beside --contents)")
	maxSessions := cmd.Flags().Int("max-sessions", 32, "sessions at once")
	idle := cmd.Flags().Duration("idle-timeout", 30*time.Minute, "close a workbench nobody typed in for this long (0: never)")
	theme := cmd.Flags().String("theme", "auto", "the workbench's theme: auto (each terminal's background), dark, light, high-contrast or none")
	cmd.RunE = func(*cobra.Command, []string) error {
		if !themes.Valid(*theme) {
			return usagef("--theme: %q is not one of %s", oneLine(*theme), strings.Join(themes.Names, ", "))
		}
		if *keys == "" && *viewers == "" {
			return usagef("serve: give --keys (reviewers) and/or --viewers (read only): authorized_keys files whose comments are the people's names")
		}
		if *maxSessions <= 0 {
			return usagef("--max-sessions: %d is not a positive number", *maxSessions)
		}
		dir, err := filepath.Abs(*contents)
		if err != nil {
			return err
		}
		hk := *hostKey
		if hk == "" {
			hk = filepath.Join(filepath.Dir(dir), ".referee", "ssh_host_ed25519_key")
		}
		it := *idle
		if it == 0 {
			it = -1
		}
		// The server holds the run once and every session's screens beside it; at Go's
		// default the heap grows to twice what is live before a collection, and what
		// sessions draw in between stays resident. As the workbench collects once its
		// extras are built (tui.GCPercent); a GOGC set by hand is obeyed.
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(tui.GCPercent)
		}
		srv, err := serve.New(serve.Config{Dir: dir, Listen: *listen, Keys: *keys, Viewers: *viewers, HostKey: hk,
			MaxSessions: *maxSessions, IdleTimeout: it, Theme: *theme, Log: a.stderr, Exec: servedExec(dir)})
		if err != nil {
			return err
		}
		stop := make(chan os.Signal, 1)
		signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(stop)
		go func() {
			<-stop
			_ = srv.Close()
		}()
		return srv.ListenAndServe()
	}
	return cmd
}

// servedExec runs a command line over SSH with the CLI's own commands, on the served
// folder, as the person (served).
func servedExec(dir string) serve.ExecFunc {
	return func(_ context.Context, p serve.Person, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		a := newApp(stdin, stdout, stderr)
		a.served = &servedAs{dir: dir, person: p}
		return a.execute(args)
	}
}

// servedAs is who runs a command over SSH, on which folder.
type servedAs struct {
	dir    string
	person serve.Person
}

// The commands served over SSH: to read (everyone) and to write (reviewers).
var (
	servedReads  = []string{"status", "show", "log", "diff", "why", "runs", "export", "graveyard", "similar", "skills list", "skills", "skill", "help"}
	servedWrites = []string{"skill ", "undo", "rewind", "branch"}
	// servedFlags name a path on the server or an identity: the folder and the actor
	// are the session's, and no file of the server is read or written by name.
	servedFlags = []string{"contents", "out", "state-glob", "claude-dir", "project", "prices", "follow"}
)

// checkServed is the root's PersistentPreRunE over SSH: the command must be served,
// writes need a reviewer, flags naming server paths are refused, and the folder and
// the actor are set to the session's.
func (s *servedAs) check(cmd *cobra.Command, _ []string) error {
	path := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name())
	path = strings.TrimSpace(path)
	write := false
	for _, w := range servedWrites {
		if path == w || strings.HasPrefix(path, w) && (strings.HasSuffix(w, " ") || strings.HasPrefix(path, w+" ")) {
			write = true
		}
	}
	if !write && !contains(servedReads, path) {
		if path == "" {
			return usagef("give a command (status, show, log, diff, why, runs, export …), or ssh -t for the workbench")
		}
		return usagef("%s is not served over SSH (served: %s; for reviewers also skill, undo, rewind, branch)", path, strings.Join(servedReads[:9], ", "))
	}
	if write && s.person.ReadOnly {
		return fmt.Errorf("read only: %s joined as a viewer (--viewers); %s changes the folder", s.person.Name, path)
	}
	f := cmd.Flags()
	for _, name := range servedFlags {
		if f.Changed(name) {
			return usagef("--%s is not served over SSH (the folder is the served one; no file of the server is named)", name)
		}
	}
	if f.Changed("params") {
		if v, _ := f.GetString("params"); v != "-" {
			return usagef("--params: over SSH only - (standard input) is read")
		}
	}
	if write && f.Changed("actor") {
		return usagef("--actor is not served over SSH: changes are recorded as %s", s.person.Name)
	}
	if f.Lookup("contents") != nil {
		if err := f.Set("contents", s.dir); err != nil {
			return err
		}
	}
	if write && f.Lookup("actor") != nil {
		if err := f.Set("actor", s.person.Name); err != nil {
			return err
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
