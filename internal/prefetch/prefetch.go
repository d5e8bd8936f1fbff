// Package prefetch reads the workbench's object files while the program starts: the
// bytes of as many as it can, from before the other packages are initialised until the
// first load takes them (store's readAll), on a core that would otherwise wait. It knows
// nothing of their contents; the load parses them as it parses what it reads itself.
//
// It watches the folders it reads (inotify) from before its first read, and Take gives
// only the files nothing has touched since they were read: a file written, created,
// removed, renamed or changed in its mode meanwhile is read again by the load. Take is
// called once the caller's own watch is in place (the workbench's watcher is started
// before its load), so a change is either seen by that watch or read by the load.
//
// It starts only for a command line that opens the workbench (bare `referee` and its
// own flags, nothing else): any other command, and test binaries, never see it.
package prefetch

import (
	"os"
	"path/filepath"
	"strings"
)

// Folders are the object folders read, in the order read: the statements, by far the
// most files, first.
var Folders = []string{"statement", "problem", "experience"}

// MaxBytes bounds what is held before the load takes it (reserved at the start, used as
// files are read); a larger folder's other files are read by the load.
const MaxBytes = 64 << 20

// MaxFile is the largest file read (a larger one is the load's to refuse, with its
// reason).
const MaxFile = 1 << 20

// Folder is what was read of one object folder: the folder as opened (its device and
// inode, so a folder swapped in since is not taken for it) and its files' bytes by name.
type Folder struct {
	Dev, Ino uint64
	Files    map[string][]byte
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
// for real later, by cobra, and this only decides whether to read ahead.
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
