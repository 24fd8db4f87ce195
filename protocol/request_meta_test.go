package protocol_test

import (
	"errors"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func decodeRequest(t *testing.T, s string) *protocol.Request {
	t.Helper()
	m, err := protocol.DecodeMessage([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return m.(*protocol.Request)
}

// Request.Meta parses once: the transport, the engine and the handler of a
// request share the outcome.
func TestRequestMetaParsedOnce(t *testing.T) {
	req := decodeRequest(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`)
	m1, err := req.Meta()
	if err != nil || m1.ProtocolVersion != protocol.Version20260728 || m1.ClientCapabilities == nil {
		t.Fatalf("Meta = %+v, %v", m1, err)
	}
	req.Params = []byte(`{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}`)
	m2, err := req.Meta()
	if err != nil || m2.ProtocolVersion != m1.ProtocolVersion || m2.ClientCapabilities != m1.ClientCapabilities {
		t.Errorf("second Meta = %+v, %v: parsed again", m2, err)
	}
}

func TestRequestMetaAbsentAndInvalid(t *testing.T) {
	plain := decodeRequest(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}}`)
	if m, err := plain.Meta(); err != nil || m.ProtocolVersion != "" || m.ClientCapabilities != nil || m.Other != nil {
		t.Errorf("Meta of params without _meta = %+v, %v", m, err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = plain.Meta() }); n != 0 {
		t.Errorf("Meta of params without _meta allocates %.0f times", n)
	}
	bad := decodeRequest(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":3}}`)
	for range 2 {
		if _, err := bad.Meta(); !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("Meta of a non-object _meta: %v, want ErrInvalidParams", err)
		}
	}
}
