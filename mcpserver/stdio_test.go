package mcpserver

import (
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
