package bench

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// The agents' side of the comparison, as they run it: Python scripts.
var (
	//go:embed peers/load.py
	loadScript []byte
	//go:embed peers/skill.py
	skillScript []byte
)

// Python runs the peers' scripts with one interpreter.
type Python struct {
	Path    string // the interpreter itself (a shim such as pyenv's is resolved: it costs tens of ms a call)
	Version string
	dir     string // where the scripts are written
}

// FindPython resolves name (e.g. "python3") to its interpreter and writes the scripts
// beside it in a temporary folder. Close removes them.
func FindPython(name string) (*Python, error) {
	out, err := exec.Command(name, "-c", "import sys; print(sys.executable); print(sys.version.split()[0])").Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 2 || lines[0] == "" {
		return nil, fmt.Errorf("%s: cannot tell its interpreter (got %q)", name, out)
	}
	dir, err := os.MkdirTemp("", "referee-bench-py-")
	if err != nil {
		return nil, err
	}
	p := &Python{Path: lines[0], Version: lines[1], dir: dir}
	for name, script := range map[string][]byte{"load.py": loadScript, "skill.py": skillScript} {
		if err := os.WriteFile(filepath.Join(dir, name), script, 0o644); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

func (p *Python) Close() { os.RemoveAll(p.dir) }

// LoadReport is what load.py prints.
type LoadReport struct {
	Seconds   float64       `json:"seconds"`
	Objects   int           `json:"objects"`
	Log       int           `json:"log"`
	MaxRSSKiB int64         `json:"maxrss_kib"`
	Wall      time.Duration `json:"-"` // the whole process, interpreter start included
}

// Load runs the agents' loader on a folder.
func (p *Python) Load(dir string) (LoadReport, error) {
	var r LoadReport
	start := time.Now()
	out, err := exec.Command(p.Path, filepath.Join(p.dir, "load.py"), dir).Output()
	r.Wall = time.Since(start)
	if err != nil {
		return r, fmt.Errorf("load.py: %w%s", err, stderrOf(err))
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("load.py printed %q: %w", out, err)
	}
	return r, nil
}

// Skill runs the agents' skill script for one call of a loop; it returns the whole
// process's time and the time the script reports for its work.
func (p *Python) Skill(l *SkillLoop) (wall, work time.Duration, err error) {
	name, params := l.Next()
	args := append([]string{filepath.Join(p.dir, "skill.py"), name, "--contents", l.Dir}, flags(params)...)
	start := time.Now()
	out, err := exec.Command(p.Path, args...).Output()
	wall = time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("skill.py %s: %w%s", name, err, stderrOf(err))
	}
	var r struct {
		Seconds float64 `json:"seconds"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return 0, 0, fmt.Errorf("skill.py printed %q: %w", out, err)
	}
	return wall, time.Duration(r.Seconds * float64(time.Second)), nil
}

// Start is a bare interpreter start: the part of every call that is not the work.
func (p *Python) Start() (time.Duration, error) {
	start := time.Now()
	err := exec.Command(p.Path, "-c", "pass").Run()
	return time.Since(start), err
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok && len(ee.Stderr) > 0 {
		return ": " + strings.TrimSpace(string(ee.Stderr))
	}
	return ""
}
