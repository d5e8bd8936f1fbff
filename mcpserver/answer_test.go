package mcpserver

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A read tool's answer on the wire, byte for byte: its JSON as text and as structured
// content, hostile text escaped as encoding/json escapes it (control characters,
// U+2028, bytes that are not UTF-8), and the result type a client of the newer
// protocol is sent.
func TestReadAnswerOnTheWire(t *testing.T) {
	dir := freshFolder(t)
	path := filepath.Join(dir, "statement", "s-001.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	proof := "Let $a<b$ & \"c\" hold \x1b[31mred\x1b[0m.\n\nStep 1: Hence a\\b \xff\u2028 done."
	quoted, _ := json.Marshal(proof)
	data = bytes.Replace(data, []byte(`"full": ""`), append([]byte(`"full": `), quoted...), 1)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	const answer = `{"id":"s-001","sentences":[` +
		`{"n":1,"text":"Let $a<b$ & \"c\" hold \u001b[31mred\u001b[0m.","paragraph":0},` +
		`{"n":2,"text":"Step 1: Hence a\\b ` + "\ufffd" + `\u2028 done.","paragraph":1,"step":1}],"version":"` // the byte that is not UTF-8 was replaced as the file was read
	for _, c := range []struct{ protocol, tail string }{
		{"2025-06-18", `}}`},
		{"2026-07-28", `,"resultType":"complete"}}`},
	} {
		t.Run(c.protocol, func(t *testing.T) {
			conn := serveAs(t, dir, c.protocol)
			conn.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sentences","arguments":{"statement_id":"s-001"}}}`)
			got := conn.recv()
			// The version is the file's hash: read it from the answer, then compare the rest.
			_, rest, _ := strings.Cut(got, `\"version\":\"`)
			version, _, _ := strings.Cut(rest, `\"`)
			if len(version) != 8 {
				t.Fatalf("no version in %s", got)
			}
			body := answer + version + `"}`
			var text bytes.Buffer
			enc := json.NewEncoder(&text)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(body); err != nil {
				t.Fatal(err)
			}
			want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":` + strings.TrimSuffix(text.String(), "\n") + `}],"structuredContent":` + body + c.tail
			if got != want {
				t.Errorf("the answer\n%s\nwant\n%s", got, want)
			}
		})
	}
}
