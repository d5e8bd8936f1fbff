package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/store"
)

// connect starts a server on dir over the stdio transport (the guard included) and
// returns the SDK's client session to it, named actor.
func connect(t testing.TB, dir, actor string) *mcp.ClientSession {
	t.Helper()
	return connectWith(t, dir, actor, true)
}

// connectWith is connect with the live engine (as `referee mcp` runs) or without it
// (each read tool reads the folder).
func connectWith(t testing.TB, dir, actor string, engine bool) *mcp.ClientSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	opts := Options{Now: testNow}
	if engine {
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		opts.Context = ctx
	}
	go func() {
		ServeStdio(context.Background(), New(dir, opts), inR, outW, 0)
		outW.Close()
		close(done)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: actor, Version: "test"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop")
		}
	})
	return cs
}

// 8 agents, each with its own server on the same folder, make 20 changes each at once:
// every change is made, under its own ID, and the problem lists all 160 statements.
func TestEightClientsTwentyCallsEach(t *testing.T) {
	const clients, calls = 8, 20
	dir := freshFolder(t)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		sessions[i] = connect(t, dir, fmt.Sprintf("agent-%d", i))
	}
	var (
		mu      sync.Mutex
		changes = map[string]string{}
		created = map[string]string{}
		wg      sync.WaitGroup
	)
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range calls {
				claim := fmt.Sprintf("claim %d of agent %d", j, i)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "prob-wrapup-statement",
					Arguments: map[string]any{"problem_id": "p-001", "claim": []string{claim}}})
				if err != nil {
					t.Error(err)
					return
				}
				if res.IsError {
					t.Errorf("%s: %s", claim, res.Content[0].(*mcp.TextContent).Text)
					return
				}
				var r store.Result
				if err := remarshal(res.StructuredContent, &r); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if prev, dup := changes[r.Change]; dup {
					t.Errorf("change %s made twice: %s and %s", r.Change, prev, claim)
				}
				changes[r.Change] = claim
				for _, id := range r.Created {
					if prev, dup := created[id]; dup {
						t.Errorf("%s created twice: %s and %s", id, prev, claim)
					}
					created[id] = claim
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(changes) != clients*calls || len(created) != clients*calls {
		t.Fatalf("%d changes, %d statements created; want %d", len(changes), len(created), clients*calls)
	}
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(snap.Log); n != 1+clients*calls {
		t.Errorf("the log has %d changes, want %d", n, 1+clients*calls)
	}
	for id, claim := range created {
		st := snap.Statements.Get(id)
		if st == nil || !slices.Equal(st.Conclusion, []string{claim}) {
			t.Errorf("%s does not hold %q", id, claim)
		}
		if !slices.Contains(snap.Problems["p-001"].Progresses, "("+id+") "+claim) {
			t.Errorf("p-001 does not list %s", id)
		}
	}
	if last := fmt.Sprintf("s-%03d", 6+clients*calls); snap.Config.Last["s"] != last {
		t.Errorf("config.json's statement counter is %s, want %s", snap.Config.Last["s"], last)
	}
	for _, f := range mustCheck(t, dir) {
		if f.Severity == store.SeverityError || strings.Contains(f.Msg, "counter") {
			t.Error(f)
		}
	}
}

// remarshal reads structured content (decoded by the client as a map) into v.
func remarshal(from, v any) error {
	data, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func mustCheck(t *testing.T, dir string) []store.Finding {
	t.Helper()
	findings, err := store.Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	return findings
}
