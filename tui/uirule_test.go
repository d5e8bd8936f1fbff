package tui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The rule of the package doc: Update does no disk I/O and never sleeps. Checked here
// the way it is kept: a call that reads or writes files, waits for a lock or sleeps may
// appear only inside a function literal (a tea.Cmd, run off the UI goroutine) or in a
// function that runs before the program or outside it (offUI).
var blocking = []string{
	"os.ReadFile", "os.WriteFile", "os.Open", "os.OpenFile", "os.Create", "os.Stat", "os.Lstat", "os.ReadDir",
	"os.Remove", "os.RemoveAll", "os.MkdirTemp", "os.CreateTemp", "time.Sleep",
	"store.Load", "store.LoadWithProgress", "store.LoadTail", "store.Reload", "store.Run", "store.Plan", "store.NewHistory",
	"store.ReadRuns", "store.Watch",
	"live.Watch", "live.Load", "live.Reload", "live.ReloadAll", // the live room reads the folder
	"feed.Next", "feed.Wait", "src.Next", "src.Wait", // a live.Feed waits for the watcher (held as feed or m.feed.src)
}

// offUI are the functions that may block: they run before the program starts, after it
// ends, or in measurements.
var offUI = map[string]bool{
	"New": true, "Run": true, "Close": true, "derive": true, "checkFolder": true, // before the program
	"IsDemo": true, "ScratchCopy": true, // Run's: the bundled demo's scratch copy, before the program
}

// known are the calls still made on the UI goroutine, each with why it is tolerated for
// now. The list may only shrink.
var known = map[string]string{
	"logHistory: store.NewHistory": "of an empty snapshot, before any log was read: no file is touched",
	"rebuildDetail: Proof.Text":    "only once Proof.Ready: the file was read by readProof's command",
	"proofText: Proof.Text":        "sentence and issue keys: the shown proof was read by readProof's command; a key that jumps to an issue of a statement not yet shown still reads it (to move into the command)",
}

func TestUpdateDoesNoDiskIOAndNeverSleeps(t *testing.T) {
	// The workbench and its sub-packages (dialog, common, …): every Update path.
	files, _ := filepath.Glob("*.go")
	sub, _ := filepath.Glob("*/*.go")
	files = append(files, sub...)
	for _, want := range []string{"dialog/confirm.go", "common/common.go"} {
		if !slices.Contains(files, want) {
			t.Fatalf("the walk misses %s", want)
		}
	}
	fset := token.NewFileSet()
	var found []string
	seen := map[string]bool{} // the known calls still made
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || offUI[fd.Name.Name] {
				continue
			}
			walk := func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.FuncLit:
					return false // a command: runs elsewhere
				case *ast.CallExpr:
					// A lean proof's Text reads its file unless Proof.Ready says otherwise.
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Text" {
						if x, ok := sel.X.(*ast.SelectorExpr); ok && x.Sel.Name == "Proof" {
							call := fd.Name.Name + ": Proof.Text"
							seen[call] = true
							if _, ok := known[call]; !ok {
								found = append(found, fset.Position(n.Pos()).String()+" "+call)
							}
						}
					}
					if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
						var x string // a package, a variable, or a field (m.feed.src: "feed")
						switch r := sel.X.(type) {
						case *ast.Ident:
							x = r.Name
						case *ast.SelectorExpr:
							x = r.Sel.Name
						}
						if x != "" && slices.Contains(blocking, x+"."+sel.Sel.Name) {
							call := fd.Name.Name + ": " + x + "." + sel.Sel.Name
							seen[call] = true
							if _, ok := known[call]; !ok {
								found = append(found, fset.Position(n.Pos()).String()+" "+call)
							}
						}
					}
				}
				return true
			}
			ast.Inspect(fd.Body, walk)
		}
	}
	for call := range known {
		if !seen[call] {
			t.Errorf("known lists %q, which the tui no longer makes: take it off the list", call)
		}
	}
	if len(found) > 0 {
		t.Errorf("blocking calls outside commands (the UI goroutine must not make them):\n%s", strings.Join(found, "\n"))
	}
}
