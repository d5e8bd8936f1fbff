package main

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/internal/testutil"
	"referee/skill"
)

// The MCP server end to end: the built binary over stdio, driven by the SDK's client as
// Claude Code drives it. The same agent cycle run through `referee skill` on a copy of
// the same folder must leave the same bytes.

var freshStart = testutil.Path("fixtures/mra-conformance/fresh/start")

// mcpSession starts `referee mcp` on dir as the client named actor.
func mcpSession(t *testing.T, dir, actor string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	cmd := exec.Command(binary, "mcp", "--contents", dir)
	cmd.Env = []string{"REFEREE_NOW=" + now, "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: actor, Version: "test"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// toolCall turns a `referee skill NAME --flag value …` command line into the tool call
// the agent would make: the same parameters by their snake_case names, lists as lists,
// numbers as numbers; --actor becomes the client's name.
func toolCall(t *testing.T, args []string) (name, actor string, arguments map[string]any) {
	t.Helper()
	sk, ok := skill.Lookup(args[1])
	if !ok {
		t.Fatalf("no skill %s", args[1])
	}
	arguments = map[string]any{}
	for i := 2; i < len(args); i += 2 {
		flag, value := strings.TrimPrefix(args[i], "--"), args[i+1]
		if flag == "actor" {
			actor = value
			continue
		}
		pname := strings.ReplaceAll(flag, "-", "_")
		p, ok := sk.Param(pname)
		if !ok {
			t.Fatalf("%s has no parameter %s", sk.Name, pname)
		}
		switch p.Kind {
		case skill.ParamStrings, skill.ParamIDs:
			list, _ := arguments[pname].([]string)
			arguments[pname] = append(list, value)
		case skill.ParamInt:
			n, err := strconv.Atoi(value)
			if err != nil {
				t.Fatal(err)
			}
			arguments[pname] = n
		default:
			arguments[pname] = value
		}
	}
	return args[1], actor, arguments
}

func resultText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%d contents, want 1", len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is a %T", res.Content[0])
	}
	return tc.Text
}

func TestMCPAgentCycleMatchesCLI(t *testing.T) {
	cliRoot, mcpRoot := t.TempDir(), t.TempDir()
	testutil.CopyTree(t, freshStart, filepath.Join(cliRoot, "contents"))
	testutil.CopyTree(t, freshStart, filepath.Join(mcpRoot, "contents"))
	mcpDir := filepath.Join(mcpRoot, "contents")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// The tool list is the registry: every skill and alias, then the read tools.
	tools, err := mcpSession(t, mcpDir, "lister").ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]*mcp.Tool{}
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		byName[tool.Name] = tool
	}
	var want []string
	for _, sk := range skill.Skills {
		want = append(want, sk.Name)
		want = append(want, sk.Aliases...)
	}
	want = append(want, "status", "show", "sentences", "check", "similar", "log")
	slices.Sort(names)
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("tools:\n%v\nwant:\n%v", names, want)
	}
	schema, _ := json.Marshal(byName["check-reject-proof"].InputSchema)
	for _, frag := range []string{
		`"required":["statement_id","sentence_number","sentence_text","error_type","explanation","suggested_fix"]`,
		`"error_type":{"description":"what kind of error","enum":["`,
		`"expect_version":{"description":"refuse the change (a conflict error) if the object named by statement_id changed since you read this version`,
		`"sentence_number":{"description":"the number of the sentence with the gap","minimum":1,"type":"integer"}`,
		`"additionalProperties":false`,
	} {
		if !strings.Contains(string(schema), frag) {
			t.Errorf("check-reject-proof's schema lacks %s:\n%s", frag, schema)
		}
	}

	// The cycle, step by step: the CLI on one copy, a tool call (each agent its own
	// client, named as the CLI's --actor) on the other.
	steps := cycleSteps("p-001", "s-007", "l-007", []string{"l-002", "l-003", "l-004", "l-005", "l-006"}, "")[:5]
	for _, s := range steps {
		referee(t, cliRoot, "", s.args...).want(t, 0, s.stdout, "")
		name, actor, arguments := toolCall(t, s.args)
		res, err := mcpSession(t, mcpDir, actor).CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: arguments})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError || resultText(t, res)+"\n" != s.stdout {
			t.Fatalf("%s: %q (error %v), want %q", name, resultText(t, res), res.IsError, s.stdout)
		}
	}
	sameTree(t, testutil.Files(t, mcpDir), testutil.Files(t, filepath.Join(cliRoot, "contents")))

	// Refusals in the CLI's words, nothing written: a precondition, a conflict, bad input.
	cs := mcpSession(t, mcpDir, "agent-check")
	for _, c := range []struct {
		kind string
		cli  []string
		tool map[string]any
	}{
		{"precondition", []string{"skill", "check-confirm-proof", "--statement-id", "s-007"},
			map[string]any{"statement_id": "s-007"}},
		{"conflict", []string{"skill", "check-confirm-proof", "--statement-id", "s-007", "--expect-version", "0badc0de"},
			map[string]any{"statement_id": "s-007", "expect_version": "0badc0de"}},
		{"input", []string{"skill", "check-confirm-proof", "--statement-id", "x-007"},
			map[string]any{"statement_id": "x-007"}},
	} {
		o := referee(t, cliRoot, "", append(c.cli, "--contents", "contents")...)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "check-confirm-proof", Arguments: c.tool})
		if err != nil {
			t.Fatal(err)
		}
		if got, wantText := resultText(t, res), c.kind+": "+strings.TrimSuffix(strings.TrimPrefix(o.stderr, "referee: "), "\n"); !res.IsError || got != wantText {
			t.Errorf("%s: %q (error %v), want %q", c.kind, got, res.IsError, wantText)
		}
	}
	sameTree(t, testutil.Files(t, mcpDir), testutil.Files(t, filepath.Join(cliRoot, "contents")))

	// The read tools see what the cycle did.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "show", Arguments: map[string]any{"id": "s-007"}})
	if err != nil {
		t.Fatal(err)
	}
	var shown struct {
		Version string
		Phase   string
		Threads []struct {
			Issue     struct{ Number, Sentence int }
			Responses []struct{ Type string }
		}
	}
	if err := json.Unmarshal([]byte(resultText(t, res)), &shown); err != nil {
		t.Fatal(err)
	}
	o := referee(t, cliRoot, "", "show", "s-007", "--output", "json", "--contents", "contents")
	var cliShown struct{ Version, Phase string }
	if err := json.Unmarshal([]byte(o.stdout), &cliShown); err != nil {
		t.Fatal(err)
	}
	if shown.Version != cliShown.Version || shown.Phase != cliShown.Phase || len(shown.Threads) != 1 ||
		shown.Threads[0].Issue.Number != 1 || shown.Threads[0].Issue.Sentence != 3 ||
		len(shown.Threads[0].Responses) != 1 || shown.Threads[0].Responses[0].Type != "patch" {
		t.Errorf("show s-007: %+v, CLI %+v", shown, cliShown)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "status"})
	if err != nil {
		t.Fatal(err)
	}
	o = referee(t, cliRoot, "", "status", "--output", "json", "--contents", "contents")
	var a, b map[string]any
	json.Unmarshal([]byte(resultText(t, res)), &a)
	json.Unmarshal([]byte(o.stdout), &b)
	// The tool adds how many pieces of work there are and how many its limit left out.
	if next, _ := b["next"].([]any); a["next_total"] != float64(len(next)) || a["next_left_out"] != float64(0) {
		t.Errorf("status: next_total %v, next_left_out %v; the CLI lists %d", a["next_total"], a["next_left_out"], len(next))
	}
	delete(a, "next_total")
	delete(a, "next_left_out")
	if ja, jb := mustJSON(a), mustJSON(b); ja != jb {
		t.Errorf("status:\n%s\nCLI:\n%s", ja, jb)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "log", Arguments: map[string]any{"since": "l-005"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := resultText(t, res); !strings.HasPrefix(text, `[{"id":"l-006",`) || strings.Count(text, `"id":"l-`) != 1 {
		t.Errorf("log since l-005: %s", text)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "referee://statement/s-007"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, `"version":"`+cliShown.Version+`"`) {
		t.Errorf("resource s-007: %+v", rr.Contents)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// skills install writes referee's entry into .mcp.json, keeping what else is there; a
// file that does not parse stops the install with nothing written.
func TestSkillsInstallWritesMCPConfig(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".mcp.json"), `{"mcpServers": {"lean": {"command": "lean-mcp", "args": []}, "referee": {"command": "old"}}, "other": [1, 2]}`)
	o := referee(t, root, "", "skills", "install", "--contents", "proofs/contents", "--output", "json")
	if o.code != 0 || !strings.Contains(o.stdout, `"path": ".mcp.json",
      "action": "merged",`) {
		t.Errorf("install: %d %s %s", o.code, o.stdout, o.stderr)
	}
	want := `{
    "mcpServers": {
        "lean": {
            "command": "lean-mcp",
            "args": []
        },
        "referee": {
            "command": "referee",
            "args": [
                "mcp",
                "--contents",
                "proofs/contents"
            ]
        }
    },
    "other": [
        1,
        2
    ]
}
`
	if got := readFile(t, filepath.Join(root, ".mcp.json")); got != want {
		t.Errorf(".mcp.json:\n%s\nwant:\n%s", got, want)
	}
	// Again: the same file.
	referee(t, root, "", "skills", "install", "--contents", "proofs/contents", "--output", "json")
	if got := readFile(t, filepath.Join(root, ".mcp.json")); got != want {
		t.Errorf(".mcp.json after a second install:\n%s", got)
	}
	// A fresh folder gets a file of its own.
	fresh := t.TempDir()
	referee(t, fresh, "", "skills", "install", "--output", "json")
	var cfg struct {
		MCPServers map[string]struct {
			Command string
			Args    []string
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(fresh, ".mcp.json"))), &cfg); err != nil ||
		cfg.MCPServers["referee"].Command != "referee" || strings.Join(cfg.MCPServers["referee"].Args, " ") != "mcp --contents ./contents" {
		t.Errorf("fresh .mcp.json: %v %+v", err, cfg)
	}
	broken := t.TempDir()
	writeFile(t, filepath.Join(broken, ".mcp.json"), `{"mcpServers": `)
	o = referee(t, broken, "", "skills", "install")
	if o.code != 2 || !strings.HasPrefix(o.stderr, "referee: .mcp.json: not valid JSON (") {
		t.Errorf("broken .mcp.json: %d %q", o.code, o.stderr)
	}
	if got := testutil.Files(t, broken); len(got) != 1 || got[".mcp.json"] != `{"mcpServers": ` {
		t.Errorf("a broken .mcp.json: the install wrote %d files", len(got))
	}

	// Uninstall: the file as it was, byte for byte. A server added since install stays,
	// and only referee's entry (as it was before: "old") goes back.
	orig := `{"mcpServers": {"lean": {"command": "lean-mcp", "args": []}, "referee": {"command": "old"}}, "other": [1, 2]}`
	if o := referee(t, root, "", "skills", "uninstall"); o.code != 0 || !strings.HasSuffix(o.stdout, "\nremoved .claude/skills/abandon/SKILL.md\nrestored .mcp.json\n") {
		t.Errorf("uninstall: %d %s %s", o.code, o.stdout, o.stderr)
	}
	if got := readFile(t, filepath.Join(root, ".mcp.json")); got != orig {
		t.Errorf(".mcp.json after uninstall:\n%s", got)
	}
	referee(t, root, "", "skills", "install", "--contents", "proofs/contents")
	added := strings.Replace(readFile(t, filepath.Join(root, ".mcp.json")), `"mcpServers": {`, `"mcpServers": {"math": {"command": "m"},`, 1)
	writeFile(t, filepath.Join(root, ".mcp.json"), added)
	o = referee(t, root, "", "skills", "uninstall")
	if o.code != 0 || !strings.Contains(o.stdout, "restored .mcp.json: changed since install: referee's entry taken out, the rest kept\n") {
		t.Errorf("uninstall: %d %s %s", o.code, o.stdout, o.stderr)
	}
	var cfg2 struct {
		MCPServers map[string]struct{ Command string } `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(root, ".mcp.json"))), &cfg2); err != nil ||
		len(cfg2.MCPServers) != 3 || cfg2.MCPServers["math"].Command != "m" || cfg2.MCPServers["referee"].Command != "old" {
		t.Errorf(".mcp.json after uninstall: %v %+v", err, cfg2)
	}
	if _, err := os.Stat(filepath.Join(root, ".referee")); err == nil {
		t.Errorf("uninstall left .referee")
	}
}

// -tags nomcp leaves the MCP SDK (and net/http, crypto) out, for the fastest process start;
// its mcp says so.
func TestBuildWithoutMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("builds referee")
	}
	bin := filepath.Join(t.TempDir(), "referee")
	build := exec.Command("go", "build", "-tags", "noui,nomcp", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	deps, err := exec.Command("go", "list", "-tags", "noui,nomcp", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range []string{"github.com/modelcontextprotocol/go-sdk/mcp", "net/http", "referee/mcpserver"} {
		if slices.Contains(strings.Fields(string(deps)), dep) {
			t.Errorf("the nomcp build links %s", dep)
		}
	}
	var stderr strings.Builder
	cmd := exec.Command(bin, "mcp")
	cmd.Stderr = &stderr
	if err := cmd.Run(); cmd.ProcessState.ExitCode() != 2 ||
		stderr.String() != "referee: this referee was built without the MCP server (-tags nomcp); build it without that tag to serve MCP\n" {
		t.Errorf("mcp in the nomcp build: %v %q", err, stderr.String())
	}
}

// referee mcp --http: loopback only unless --allow-remote, a token generated and printed
// when none is given, the tools behind it.
func TestMCPOverHTTP(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "contents")
	testutil.CopyTree(t, freshStart, dir)
	referee(t, root, "", "mcp", "--http", "0.0.0.0:0").want(t, 2, "",
		"referee: --http: 0.0.0.0 is not a loopback address; referee mcp serves only this machine unless --allow-remote is given\n")
	referee(t, root, "", "mcp", "--http", ":0", "--token", "x").want(t, 2, "",
		"referee: --token: a 1-character token holds at most 6 bits, under the 128 required; use at least 32 hex digits (e.g. openssl rand -hex 16), or give none and one is generated\n")
	referee(t, root, "", "mcp", "--http", ":0", "--allow-origin", "evil.example").want(t, 2, "",
		"referee: --allow-origin: \"evil.example\" is not an origin (scheme://host[:port], e.g. http://localhost:3000)\n")

	cmd := exec.Command(binary, "mcp", "--contents", dir, "--http", ":0")
	cmd.Env = []string{"REFEREE_NOW=" + now, "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("referee mcp --http after an interrupt: %v", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Error("referee mcp --http did not stop on an interrupt")
		}
	}()
	lines := make(chan string, 2)
	go func() {
		buf := make([]byte, 4096)
		var text string
		for {
			n, err := stderr.Read(buf)
			text += string(buf[:n])
			for {
				line, rest, ok := strings.Cut(text, "\n")
				if !ok {
					break
				}
				lines <- line
				text = rest
			}
			if err != nil {
				return
			}
		}
	}()
	var token, url string
	for range 2 {
		select {
		case line := <-lines:
			if tok, ok := strings.CutPrefix(line, "referee mcp: token "); ok {
				token = tok
			} else if _, rest, ok := strings.Cut(line, " on http://"); ok {
				url = "http://" + strings.Fields(rest)[0]
			} else {
				t.Fatalf("stderr: %q", line)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("referee mcp --http printed no token and address")
		}
	}
	if len(token) != 64 || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("token %q, address %q", token, url)
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %s", resp.Status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent-solve", Version: "test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: url, HTTPClient: &http.Client{Transport: withToken{token}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "prob-core-statement",
		Arguments: map[string]any{"problem_id": "p-001", "claim": []string{"over HTTP"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, res); got != "l-002 prob-wrapup-statement by agent-solve: created s-007; modified p-001" {
		t.Errorf("over HTTP: %s", got)
	}
}

type withToken struct{ token string }

func (w withToken) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+w.token)
	return http.DefaultTransport.RoundTrip(r)
}
