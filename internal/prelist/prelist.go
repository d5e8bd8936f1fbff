// Package prelist lists the workbench's object folders while the program starts: the
// names only, from before the other packages are initialised, on the core that their
// initialisation leaves idle, so the first load starts reading files at once instead of
// listing its folders first (store takes the listings, Take). It knows nothing of the
// files; it holds no bytes of them (holding bytes read ahead cost more than the load's
// own reads, docs/performance.md).
//
// It watches each folder (inotify, through the very folder it opened) from before it
// lists it, and Take gives only the listings of folders whose entries nothing has
// created, removed or renamed since: any other folder the caller lists itself. Take is
// called once the caller's own watch is in place (the workbench's watcher is started
// before its first load), so a change is either seen by that watch or in the listing.
//
// It starts only for a command line that opens the workbench (bare `referee` and its own
// flags, nothing else): any other command, and test binaries, never see it. It must
// import only packages below the runtime's own (os, syscall): a package is initialised
// after its imports, and with them it comes before chroma's large tables.
package prelist

import (
	"os"
	"path/filepath"
	"strings"
)

// Folders are the object folders listed, as store's load lists them.
var Folders = []string{"problem", "statement", "experience"}

// History is the folder of the changes, watched and not listed (Close).
const History = "history"

// Entry is one folder entry as store's listing gives it: its name, its path (sub/name),
// and whether the listing says it is a regular file.
type Entry struct {
	Name, Path string
	Regular    bool
}

func init() {
	if dir, ok := WorkbenchFolder(os.Args[1:]); ok {
		Start(dir)
	}
}

// WorkbenchFolder is the contents folder a command line opens the workbench on, if it
// does: no subcommand, only the root command's own flags (--contents, --theme,
// --stall-after, --claude-dir, each with its value), no --help or --version. Anything
// else, or anything it does not recognise, is not (false): the command line is parsed
// for real later, by cobra, and this only decides whether to list ahead.
func WorkbenchFolder(args []string) (dir string, ok bool) {
	dir = "./contents"
	for i := 0; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		switch name {
		case "--contents", "--theme", "--stall-after", "--claude-dir":
		default:
			return "", false
		}
		if !inline {
			if i+1 >= len(args) {
				return "", false
			}
			i++
			value = args[i]
		}
		if name == "--contents" {
			dir = value
		}
	}
	if dir == "" {
		return "", false
	}
	return filepath.Clean(dir), true
}
