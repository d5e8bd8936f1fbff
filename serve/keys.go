package serve

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
	gossh "golang.org/x/crypto/ssh"

	"referee/model"
)

// Person is who a key belongs to: the key's comment, and whether they came in from the
// viewers' file (read only).
type Person struct {
	Name     string
	ReadOnly bool
}

// Role is how a person is shown in the server's log.
func (p Person) Role() string {
	if p.ReadOnly {
		return "viewer"
	}
	return "reviewer"
}

// keyring is the keys allowed in, by their wire form, read from the reviewers' and the
// viewers' authorized_keys files and read again when either changes.
type keyring struct {
	reviewers, viewers string

	mu   sync.RWMutex
	keys map[string]Person
}

// readKeys reads both files; an error names the file and line.
func readKeys(reviewers, viewers string) (map[string]Person, error) {
	keys := map[string]Person{}
	for _, f := range []struct {
		path     string
		readOnly bool
	}{{reviewers, false}, {viewers, true}} {
		if f.path == "" {
			continue
		}
		if err := readKeyFile(f.path, f.readOnly, keys); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// readKeyFile reads one authorized_keys file into keys. A key needs a comment (the
// person's name); options (command=, from= …) are refused rather than ignored, since
// they would not be honoured.
func readKeyFile(path string, readOnly bool, keys map[string]Person) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, comment, opts, _, err := gossh.ParseAuthorizedKey([]byte(line))
		if err != nil {
			return fmt.Errorf("%s:%d: not an authorized_keys line: %v", path, n, err)
		}
		if len(opts) > 0 {
			return fmt.Errorf("%s:%d: key options (%s) are not supported: give the bare key and the person's name", path, n, model.SanitizeLine(strings.Join(opts, ",")))
		}
		name := strings.TrimSpace(comment)
		switch {
		case name == "":
			return fmt.Errorf("%s:%d: the key has no comment: the comment is the person's name (e.g. ssh-ed25519 AAAA… alice)", path, n)
		case model.SanitizeLine(name) != name || len(name) > 64:
			return fmt.Errorf("%s:%d: the name %q has control characters or is longer than 64 bytes", path, n, model.SanitizeLine(name))
		}
		wire := string(key.Marshal())
		if was, ok := keys[wire]; ok {
			return fmt.Errorf("%s:%d: the key of %s is given twice (also as %s's, a %s)", path, n, name, was.Name, was.Role())
		}
		keys[wire] = Person{Name: name, ReadOnly: readOnly}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func newKeyring(reviewers, viewers string) (*keyring, error) {
	keys, err := readKeys(reviewers, viewers)
	if err != nil {
		return nil, err
	}
	return &keyring{reviewers: reviewers, viewers: viewers, keys: keys}, nil
}

// lookup is the person a key belongs to.
func (k *keyring) lookup(key gossh.PublicKey) (Person, bool) {
	if key == nil {
		return Person{}, false
	}
	k.mu.RLock()
	defer k.mu.RUnlock()
	p, ok := k.keys[string(key.Marshal())]
	return p, ok
}

func (k *keyring) counts() (reviewers, viewers int) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	for _, p := range k.keys {
		if p.ReadOnly {
			viewers++
		} else {
			reviewers++
		}
	}
	return
}

// watch reads the files again when they change (their folders are watched: editors
// replace a file by renaming a new one over it). A file that does not parse leaves the
// keys as they were; logf says either way. The returned function stops watching.
func (k *keyring) watch(logf func(format string, args ...any)) (func(), error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, p := range []string{k.reviewers, k.viewers} {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			w.Close()
			return nil, err
		}
		names[abs] = true
		if err := w.Add(filepath.Dir(abs)); err != nil {
			w.Close()
			return nil, err
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if !names[ev.Name] || ev.Op == fsnotify.Chmod {
					continue
				}
				keys, err := readKeys(k.reviewers, k.viewers)
				if err != nil {
					logf("keys not reloaded (the old ones stay): %v", err)
					continue
				}
				k.mu.Lock()
				k.keys = keys
				k.mu.Unlock()
				r, v := k.counts()
				logf("keys reloaded: %d reviewers, %d viewers", r, v)
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				logf("watching the key files: %v", err)
			}
		}
	}()
	return func() { w.Close(); <-done }, nil
}
