package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"referee/internal/testutil"
)

// A change the disk cannot take: a clear error on one line naming the file, exit 1 or
// 2, and the folder byte for byte as it was.

const fsizeExecEnv = "REFEREE_TEST_FSIZE_EXEC"

func init() {
	// The test binary as a wrapper: set a file-size limit, then become referee with the
	// same arguments (the limit survives exec).
	if bin := os.Getenv(fsizeExecEnv); bin != "" {
		limit, _ := strconv.ParseUint(os.Getenv("REFEREE_TEST_FSIZE"), 10, 64)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			fmt.Fprintln(os.Stderr, "setrlimit:", err)
			os.Exit(3)
		}
		err := syscall.Exec(bin, append([]string{bin}, os.Args[1:]...), os.Environ())
		fmt.Fprintln(os.Stderr, "exec:", err)
		os.Exit(3)
	}
}

func TestFileSizeLimitCLI(t *testing.T) {
	root := openProblem(t)
	before := testutil.Files(t, root)
	cmd := exec.Command(os.Args[0], wrapUp...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), fsizeExecEnv+"="+binary, "REFEREE_TEST_FSIZE=600")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 || string(out) != "referee: cannot write history/l-007/p-001.json: file too large; nothing was changed\n" {
		t.Errorf("%v: %q", err, out)
	}
	sameTree(t, testutil.Files(t, root), before)
}

func TestDiskFullCLI(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=512k"); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	testutil.CopyTree(t, openProblem(t), mnt)
	before := testutil.Files(t, mnt)
	filler, _ := os.Create(filepath.Join(mnt, "filler"))
	for err := error(nil); err == nil; _, err = filler.Write(make([]byte, 4096)) {
	}
	filler.Close()
	before["filler"] = readFile(t, filepath.Join(mnt, "filler"))
	o := referee(t, mnt, "", wrapUp...)
	oneLine := regexp.MustCompile(`^referee: cannot (write|create) [a-z0-9/.\-]+: no space left on device; nothing was changed\n$`)
	if o.code != 1 || !oneLine.MatchString(o.stderr) || o.stdout != "" {
		t.Errorf("exit %d, stderr %q, stdout %q", o.code, o.stderr, o.stdout)
	}
	sameTree(t, testutil.Files(t, mnt), before)
}

func TestReadOnlyFolderCLI(t *testing.T) {
	root := openProblem(t)
	c := filepath.Join(root, "contents")
	want := "referee: cannot lock history/.referee.lock: permission denied\n"
	if os.Geteuid() == 0 {
		// Permissions do not stop root: make it a read-only file system.
		if err := syscall.Mount(c, c, "", syscall.MS_BIND, ""); err != nil {
			t.Skipf("cannot bind-mount: %v", err)
		}
		defer syscall.Unmount(c, syscall.MNT_DETACH)
		if err := syscall.Mount("", c, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY, ""); err != nil {
			t.Skipf("cannot remount read-only: %v", err)
		}
		want = "referee: cannot lock history/.referee.lock: read-only file system\n"
	} else {
		filepath.Walk(c, func(path string, info os.FileInfo, err error) error {
			if err == nil {
				os.Chmod(path, info.Mode().Perm()&^0o222)
			}
			return nil
		})
		defer filepath.Walk(c, func(path string, info os.FileInfo, err error) error {
			if err == nil {
				os.Chmod(path, info.Mode().Perm()|0o200)
			}
			return nil
		})
	}
	before := testutil.Files(t, root)
	referee(t, root, "", wrapUp...).want(t, 2, "", want)
	sameTree(t, testutil.Files(t, root), before)
	// Reading still works.
	if o := referee(t, root, "", "status"); o.code != 0 {
		t.Errorf("status on a read-only folder: %d %q", o.code, o.stderr)
	}
	referee(t, root, "", "check").want(t, 0, "warning: statement/s-007.json: s-007: nothing references it (did an agent stop between creating and linking it?)\n0 errors, 1 warning\n", "")
}
