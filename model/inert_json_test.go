package model

import (
	"encoding/json"
	"testing"
)

func TestInertJSON(t *testing.T) {
	in := map[string]string{"path": "statement/\u202es-001.json", "by": "agent\u009b31m\u007f", "ok": "café ≤ \u00a0"}
	raw, _ := json.Marshal(in)
	got := InertJSON(raw)
	want := `{"by":"agent\u009b31m\u007f","ok":"café ≤ ` + "\u00a0" + `","path":"statement/\u202es-001.json"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["path"] != in["path"] || back["by"] != in["by"] || back["ok"] != in["ok"] {
		t.Errorf("the data changed: %q %v", back, err)
	}
	plain := []byte(`{"a": "b"}`)
	if got := InertJSON(plain); &got[0] != &plain[0] {
		t.Error("copied text that needed nothing")
	}
}
