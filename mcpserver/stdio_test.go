package mcpserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The writer reads a response's id from its first bytes; what it finds is what a full
// decoding finds, and anything that is not a response as the SDK writes it is left to
// the decoding.
func TestResponseKey(t *testing.T) {
	for _, c := range []struct {
		line, key string
		ok        bool
	}{
		{`{"jsonrpc":"2.0","id":7,"result":{"content":[]}}` + "\n", "n:7", true},
		{`{"jsonrpc":"2.0","id":-12,"error":{"code":-32602,"message":"x"}}`, "n:-12", true},
		{`{"jsonrpc":"2.0","id":"a\"b\\","result":{}}`, `s:a"b\`, true},
		{`{"jsonrpc":"2.0","id":"é\u00e9","result":{}}`, "s:éé", true},
		{`{"jsonrpc":"2.0","id":3,"method":"roots/list"}`, "", false},     // a request the server sends
		{`{"jsonrpc":"2.0","method":"notifications/message"}`, "", false}, // a notification
		{`{"id":3,"jsonrpc":"2.0","result":{}}`, "", false},               // another layout
		{`{"jsonrpc":"2.0","id":"open`, "", false},
		{`{"jsonrpc":"2.0","id":99999999999999999999,"result":{}}`, "", false},
	} {
		key, ok := responseKey([]byte(c.line))
		if key != c.key || ok != c.ok {
			t.Errorf("responseKey(%s) = %q, %v; want %q, %v", c.line, key, ok, c.key, c.ok)
		}
		if !ok {
			continue
		}
		msg, err := jsonrpc.DecodeMessage([]byte(c.line))
		if err != nil {
			t.Fatal(err)
		}
		if full := idKey(msg.(*jsonrpc.Response).ID.Raw()); full != key {
			t.Errorf("%s: decoded, its key is %q, not %q", c.line, full, key)
		}
	}
}

// The guard reads the usual requests itself: what it reads is what the SDK's decoding
// reads, and every other shape is left to that decoding.
func TestPlainRequest(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":1,"method":"x","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`
	for _, c := range []struct {
		line string
		call bool
		key  string
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"show","arguments":{"id":"s-001"}}}`, true, "n:7", true},
		{`{"method":"tools/call","params":{},"id":"call-1 é","jsonrpc":"2.0"}`, true, "s:call-1 é", true},
		{`{"jsonrpc":"2.0","id":"a\"b","method":"ping"}`, false, "", false}, // an escape
		{`{"jsonrpc":"2.0","id":-3,"method":"ping"}`, true, "n:-3", true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false, "", true},
		{`{"jsonrpc":"2.0","id":null,"method":"notifications/cancelled","params":{"requestId":3}}`, false, "", true},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, false, "", false},               // the SDK makes it 1
		{`{"jsonrpc":"2.0","id":12345678901234567,"method":"ping"}`, false, "", false}, // beyond a float64's whole numbers
		{`{"jsonrpc":"2.0","id":1,"method":"ping","id":2}`, false, "", false},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, false, "", false}, // a response
		{`{"jsonrpc":"2.0","id":1,"method":"ping","extra":1}`, false, "", false},
		{`{"JSONRPC":"2.0","id":1,"method":"ping"}`, false, "", false},
		{`{"jsonrpc":"1.0","id":1,"method":"ping"}`, false, "", false},
		{`{"jsonrpc":"2.0","id":1,"method":7}`, false, "", false},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, false, "", false},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"ping\"}", false, "", false},
		{`{"jsonrpc":"2.0","id":1}`, false, "", false},
		{deep, false, "", false},
	} {
		call, key, ok := plainRequest([]byte(c.line))
		if call != c.call || key != c.key || ok != c.ok {
			t.Errorf("plainRequest(%.80s) = %v, %q, %v; want %v, %q, %v", c.line, call, key, ok, c.call, c.key, c.ok)
		}
		if !ok {
			continue
		}
		msg, err := jsonrpc.DecodeMessage([]byte(c.line))
		if err != nil {
			t.Errorf("%s: read, but the SDK refuses it: %v", c.line, err)
			continue
		}
		req, isReq := msg.(*jsonrpc.Request)
		if !isReq || req.IsCall() != call || (call && idKey(req.ID.Raw()) != key) {
			t.Errorf("%s: the SDK reads %#v", c.line, msg)
		}
	}
	if _, err := jsonrpc.DecodeMessage([]byte(deep)); err == nil {
		t.Error("the SDK takes a line deeper than 1000: the guard need not refuse one")
	}
}
