package pyjson

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every object file of the agents' real run must come back byte for byte.
func TestRoundTripFixture(t *testing.T) {
	needShared(t)
	files, _ := filepath.Glob(filepath.Join(fixture, "*.json"))
	more, _ := filepath.Glob(filepath.Join(fixture, "*", "*.json"))
	hist, _ := filepath.Glob(filepath.Join(fixture, "history", "*", "*.json"))
	files = append(append(files, more...), hist...)
	if len(files) != 13 { // config, 1 problem, 7 statements, 4 backups
		t.Fatalf("found only %d fixture files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := EncodeIndent(v); !bytes.Equal(got, data) {
			t.Errorf("%s: rewrite differs\n got: %q\nwant: %q", f, firstDiff(got, data), firstDiff(data, got))
		}
	}
}

func TestRoundTripLogLines(t *testing.T) {
	needShared(t)
	data, err := os.ReadFile(filepath.Join(fixture, "history", "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		v, err := Parse([]byte(line))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(EncodeLine(v)); got != line {
			t.Errorf("log line differs:\n got %s\nwant %s", got, line)
		}
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return string(a[max(0, i-20):min(len(a), i+40)])
}

// The encoder must agree with Python's json.dumps on the awkward cases.
func TestEncodeMatchesPython(t *testing.T) {
	cases := []string{
		`{"a": [], "b": {}, "c": [1, 2.5, -0.0, 1e-05, 1E16, 123456789012345678901234567890, 0.1, 1e308, 5e-324, 100.0, 1.5e300]}`,
		`{"s": "caf\u00e9 \u2264 \ud83d\ude00 \"q\" \\ / \n\t\r\b\f \u0001 \u007f \u2028"}`,
		`{"lone": "\ud800 and \udfff", "nested": {"x": [{"y": [[]]}]}}`,
		`{"dup": 1, "other": 2, "dup": 3}`,
		`[NaN, Infinity, -Infinity, true, false, null, "\u00ff\u0100"]`,
		`{"emoji": "😀", "raw": "≤∀—"}`,
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed: the expected bytes come from Python itself")
	}
	for _, in := range cases {
		for _, indent := range []bool{true, false} {
			script := "import json,sys; v=json.loads(sys.stdin.read()); sys.stdout.write(json.dumps(v, indent=4) if sys.argv[1]=='1' else json.dumps(v))"
			arg := "0"
			if indent {
				arg = "1"
			}
			cmd := exec.Command(py, "-c", script, arg)
			cmd.Stdin = strings.NewReader(in)
			want, err := cmd.Output()
			if err != nil {
				t.Fatalf("python: %v", err)
			}
			v, err := Parse([]byte(in))
			if err != nil {
				t.Fatalf("parse %s: %v", in, err)
			}
			var got []byte
			if indent {
				got = EncodeIndent(v)
			} else {
				got = EncodeLine(v)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("input %s (indent %v):\n got %s\nwant %s", in, indent, got, want)
			}
		}
	}
}

func TestParseErrorsNameTheProblem(t *testing.T) {
	cases := map[string]string{
		``:                       "empty file",
		`{"id": "s-001", "sta`:   "truncated",
		`{"a": 1} x`:             "extra data",
		"{\"a\": \"x\x01\"}":     "control character",
		"{\"a\": \"\xff\"}":      "invalid UTF-8",
		`{"a": 01}`:              "leading zero",
		"\ufeff{}":               "byte-order mark",
		`{"a" 1}`:                "expected ':'",
		strings.Repeat("[", 600): "nesting deeper than 512",
	}
	for in, want := range cases {
		_, err := Parse([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.30q) = %v, want an error containing %q", in, err, want)
		}
	}
}

func TestSetKeepsOrderAndUnknownKeys(t *testing.T) {
	v, err := Parse([]byte(`{"id": "s-001", "x_unknown": {"k": [1]}, "status": "pending"}`))
	if err != nil {
		t.Fatal(err)
	}
	v.Set("status", Str("true"))
	v.Set("added", Float(1))
	want := "{\n    \"id\": \"s-001\",\n    \"x_unknown\": {\n        \"k\": [\n            1\n        ]\n    },\n    \"status\": \"true\",\n    \"added\": 1.0\n}"
	if got := string(EncodeIndent(v)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
