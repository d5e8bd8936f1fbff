package mcpserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// A response is written byte for byte as the SDK's encoding writes it, whatever its id,
// result or error.
func TestAppendMessage(t *testing.T) {
	id := func(v any) jsonrpc.ID {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	result := json.RawMessage(`{"content":[{"type":"text","text":"{\"a\":\"<&>\"}"}],"structuredContent":{"a":"<&>"}}`)
	call, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":3,"method":"roots/list","params":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []jsonrpc.Message{
		&jsonrpc.Response{ID: id(float64(7)), Result: result},
		&jsonrpc.Response{ID: id(float64(-12)), Result: json.RawMessage(`{}`)},
		&jsonrpc.Response{ID: id(float64(0)), Result: json.RawMessage(`[]`)},
		&jsonrpc.Response{ID: id(`a"b\ <é> \u2028` + "\u2028\x01"), Result: result},
		&jsonrpc.Response{ID: id(""), Result: json.RawMessage(`{"x":1}`)},
		&jsonrpc.Response{ID: id(float64(5)), Error: &jsonrpc.Error{Code: -32602, Message: "bad <x>"}},
		&jsonrpc.Response{ID: id(float64(5))},
		&jsonrpc.Response{Result: result}, // no id
		call,
		&jsonrpc.Request{Method: "notifications/message", Params: json.RawMessage(`{"level":"info"}`)},
	} {
		want, err := jsonrpc.EncodeMessage(msg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := appendMessage([]byte("kept "), msg)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "kept "+string(want)+"\n" {
			t.Errorf("appendMessage(%#v)\n= %s\nwant %s", msg, got, want)
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
		{`{ "jsonrpc" : "2.0" , "id" : 0 , "method" : "tools/call" , "params" : { "name" : "x\"y" } }`, true, "n:0", true},
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
		{`{"jsonrpc":"2.0","id":1,"method":"p\u0069ng"}`, false, "", false},
		{`{"jsonrpc":"2.0","id":1,"method":""}`, false, "", false},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, false, "", false},
		{`{"jsonrpc":"2.0","id":1,"method":"ping","params":[1]}`, false, "", false},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, false, "", false},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"a\xffb\",\"method\":\"ping\"}", false, "", false},
		{`{"jsonrpc":"2.0","id":1}`, false, "", false},
		{deep, false, "", false},
	} {
		got, key, ok := plainRequest([]byte(c.line))
		if (ok && got.IsCall()) != c.call || key != c.key || ok != c.ok {
			t.Errorf("plainRequest(%.80s) = %#v, %q, %v; want call %v, %q, %v", c.line, got, key, ok, c.call, c.key, c.ok)
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
		if !isReq || req.IsCall() != c.call || (c.call && idKey(req.ID.Raw()) != key) ||
			req.ID != got.ID || req.Method != got.Method || string(req.Params) != string(got.Params) {
			t.Errorf("%s: the SDK reads %#v, the guard %#v", c.line, msg, got)
		}
	}
	if _, err := jsonrpc.DecodeMessage([]byte(deep)); err == nil {
		t.Error("the SDK takes a line deeper than 1000: the guard need not refuse one")
	}
}
