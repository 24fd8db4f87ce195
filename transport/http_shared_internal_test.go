package transport

import (
	"log/slog"
	"testing"
)

// FuzzBusMessage feeds a shared session's bus handler arbitrary messages,
// as a bus shared with a faulty or hostile process could: none may make
// it panic.
func FuzzBusMessage(f *testing.F) {
	for _, seed := range []string{
		`{"k":"closed","from":"X"}`,
		`{"k":"wake"}`,
		`{"k":"wake","stream":"ABC-1"}`,
		`{"k":"response","from":"X","m":{"jsonrpc":"2.0","id":"R-1","result":{}}}`,
		`{"k":"cancel","from":"X","m":{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}}`,
		`{"k":"state","from":"X","n":"logLevel","v":"debug"}`,
		`{"k":"state","from":"X","n":"","v":[1,{}]}`,
		`{"k":"response","m":[1,2]}`,
		`not json`,
	} {
		f.Add([]byte(seed))
	}
	h := NewStreamableHandler(func(Conn, ConnInfo) {}, &HTTPOptions{
		Sessions: NewMemorySessionStore(),
		Logger:   slog.New(slog.DiscardHandler),
	})
	s := h.makeSession("S", "")
	s.Close() // nothing reads its input: deliveries give up at once
	f.Fuzz(func(t *testing.T, msg []byte) {
		s.onBus(msg)
	})
}
