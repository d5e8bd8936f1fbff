package store

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"referee/internal/testutil"
)

// A change that cannot be written (a full disk, a file-size limit, a read-only folder)
// fails with one line naming the file, and leaves the folder byte for byte as it was,
// whichever file the failure hits: the temp files, the journal, or the log line after
// everything else is in place (then the change is undone in place).

const fsizeWorkerEnv = "REFEREE_FSIZE_WORKER"

func init() {
	// The test binary re-executed under a file-size limit: make one change, print the
	// error if any.
	if dir := os.Getenv(fsizeWorkerEnv); dir != "" {
		limit, _ := strconv.ParseUint(os.Getenv("REFEREE_FSIZE_LIMIT"), 10, 64)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			fmt.Println("setrlimit:", err)
			os.Exit(3)
		}
		scenario, _ := strconv.Atoi(os.Getenv("REFEREE_FSIZE_SCENARIO"))
		if err := crashScenarios[scenario].change(dir); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// failedWrite is the one line a change that could not be written ends with.
var failedWrite = regexp.MustCompile(`^cannot (write|create|append to) ([a-z0-9/.\-]+): ([a-z ]+); (nothing was changed|the change was undone, nothing was changed)$`)

// Every file-size limit from 0 to past the largest file: each stops the change at a
// different file; each leaves the folder as it was, or the change complete.
func TestFileSizeLimitSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	outcomes := map[string]int{}
	ran := 0 // scenarios that did not skip (they need the shared fixtures)
	for i, sc := range crashScenarios[:2] {
		t.Run(sc.name, func(t *testing.T) {
			pre := folderState(t, sc.setup(t))
			ran++
			post := func() map[string]string {
				dir := sc.setup(t)
				if err := sc.change(dir); err != nil {
					t.Fatal(err)
				}
				return folderState(t, dir)
			}()
			largest := 0 // the largest file the change writes
			for _, path := range diffStates(pre, post) {
				largest = max(largest, len(post[path]))
			}
			for limit := 0; limit <= largest+512; limit += 31 {
				dir := sc.setup(t)
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), fsizeWorkerEnv+"="+dir, fmt.Sprintf("REFEREE_FSIZE_LIMIT=%d", limit),
					fmt.Sprintf("REFEREE_FSIZE_SCENARIO=%d", i))
				out, err := cmd.Output()
				msg := strings.TrimSuffix(string(out), "\n")
				var ee *exec.ExitError
				switch {
				case err == nil:
					outcomes["done"]++
					if d := diffStates(folderState(t, dir), post); len(d) > 0 {
						t.Errorf("limit %d: the change succeeded but the folder differs from its result in %v", limit, d)
					}
				case errors.As(err, &ee) && ee.ExitCode() == 1:
					m := failedWrite.FindStringSubmatch(msg)
					if m == nil || strings.Contains(msg, "\n") {
						t.Errorf("limit %d: the error is not one line naming the file: %q", limit, msg)
						continue
					}
					outcomes[m[1]+" "+m[2]+": "+m[4]]++
					if d := diffStates(folderState(t, dir), pre); len(d) > 0 {
						t.Errorf("limit %d: %q, and the folder changed in %v", limit, msg, d)
					}
				default:
					t.Fatalf("limit %d: worker: %v %q", limit, err, msg)
				}
			}
		})
	}
	if ran == 0 {
		t.Skip(testutil.Missing)
	}
	t.Logf("outcomes: %v", outcomes)
	// The sweep must reach both kinds of failure, or it tested less than it says.
	var early, late bool
	for k := range outcomes {
		early = early || strings.HasSuffix(k, ": nothing was changed") && !strings.Contains(k, "undone")
		late = late || strings.Contains(k, "undone")
	}
	if !early || !late || outcomes["done"] == 0 {
		t.Errorf("the sweep missed a kind of outcome: %v", outcomes)
	}
}

// mountTmpfs mounts a small tmpfs (root only) and returns it; tests needing a real full
// disk or a read-only file system skip without one.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(mnt, syscall.MNT_DETACH) })
	return mnt
}

// copyInto copies the folder src into dst (which exists).
func copyInto(t *testing.T, src, dst string) {
	t.Helper()
	for rel, data := range folderState(t, src) {
		path := filepath.Join(dst, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			os.MkdirAll(path, 0o755)
			continue
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// fill takes all the free space of the file system of dir but n pages.
func fill(t *testing.T, dir string, pages int) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail)*st.Bsize - int64(pages)*st.Bsize
	if free > 0 {
		if _, err := f.Write(make([]byte, free)); err != nil {
			t.Fatal(err)
		}
	}
}

// A real full disk: with 0 to 8 pages left, the change fails at a different file each
// time (or fits), and the folder is left as it was.
func TestDiskFull(t *testing.T) {
	for _, sc := range crashScenarios[:2] {
		t.Run(sc.name, func(t *testing.T) {
			src := sc.setup(t)
			pre := folderState(t, src)
			outcomes := map[string]int{}
			for pages := 0; pages <= 8; pages++ {
				mnt := mountTmpfs(t, "1m")
				dir := filepath.Join(mnt, "contents")
				os.Mkdir(dir, 0o755)
				copyInto(t, src, dir)
				fill(t, mnt, pages)
				err := sc.change(dir)
				if err == nil {
					outcomes["done"]++
					continue
				}
				m := failedWrite.FindStringSubmatch(err.Error())
				if m == nil || m[3] != "no space left on device" {
					t.Errorf("%d pages free: %q", pages, err)
					continue
				}
				outcomes[m[1]+" "+m[2]+": "+m[4]]++
				if d := diffStates(folderState(t, dir), pre); len(d) > 0 {
					t.Errorf("%d pages free: %v, and the folder changed in %v", pages, err, d)
				}
			}
			t.Logf("outcomes: %v", outcomes)
			if outcomes["done"] == 0 || len(outcomes) < 3 {
				t.Errorf("the disk never filled at different files: %v", outcomes)
			}
		})
	}
}

// readOnlyCopy is a copy of src that cannot be written: a read-only tmpfs for root
// (whom permissions do not stop), read-only permissions otherwise.
func readOnlyCopy(t *testing.T, src string) string {
	t.Helper()
	if os.Geteuid() == 0 {
		mnt := mountTmpfs(t, "4m")
		copyInto(t, src, mnt)
		if err := syscall.Mount("", mnt, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			t.Skipf("cannot remount read-only: %v", err)
		}
		return mnt
	}
	dir := testutil.Copy(t, src)
	filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err == nil {
			os.Chmod(path, info.Mode().Perm()&^0o222)
		}
		return nil
	})
	t.Cleanup(func() {
		filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err == nil {
				os.Chmod(path, info.Mode().Perm()|0o200)
			}
			return nil
		})
	})
	return dir
}

func TestReadOnlyFolder(t *testing.T) {
	src := openProblemFolder(t)
	for _, withLock := range []bool{false, true} {
		if withLock {
			// A folder referee wrote to before has its lock file: the lock is taken, the
			// writes fail.
			write(t, src, LockFile, "")
		}
		dir := readOnlyCopy(t, src)
		pre := folderState(t, dir)
		err := crashScenarios[0].change(dir)
		// Opening the lock file with O_CREATE fails on a read-only file system even
		// when it exists.
		wantErr := []string{
			"cannot lock history/.referee.lock: read-only file system",
			"cannot lock history/.referee.lock: read-only file system",
		}
		if os.Geteuid() != 0 {
			wantErr = []string{
				"cannot lock history/.referee.lock: permission denied",
				"cannot create history/l-007: permission denied; nothing was changed",
			}
		}
		i := 0
		if withLock {
			i = 1
		}
		if err == nil || err.Error() != wantErr[i] {
			t.Errorf("lock file %v: %v, want %q", withLock, err, wantErr[i])
		}
		if d := diffStates(folderState(t, dir), pre); len(d) > 0 {
			t.Errorf("lock file %v: the folder changed in %v", withLock, d)
		}
	}
}
