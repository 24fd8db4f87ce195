package transport_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/transport"
)

// bindingTarget is one way of addressing a session: the session id
// (Streamable HTTP) or the message URL (legacy HTTP+SSE).
type bindingTarget struct {
	sid, url string
}

// bindingMethod is one kind of request for an existing session.
type bindingMethod struct {
	name string
	// open starts a session as the caller with Authorization creator.
	open func(t *testing.T, creator string) bindingTarget
	// send makes the request as the caller with Authorization auth and
	// returns the status and body.
	send func(t *testing.T, tg bindingTarget, auth string) (int, string)
	// unknown is a target for the same kind of session that does not exist.
	unknown bindingTarget
	ok      int  // the status the session's own caller gets
	ends    bool // a successful request ends the session
}

// openSSESession opens a legacy HTTP+SSE session with the given
// Authorization and returns the URL to POST its messages to. The stream
// stays open until the test ends.
func openSSESession(t *testing.T, base, auth string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/sse", nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		resp.Body.Close()
	})
	ev := &firstEvent{r: resp.Body}
	buf := make([]byte, 512)
	var text string
	for range 512 {
		n, err := ev.Read(buf)
		text += string(buf[:n])
		if err != nil {
			break
		}
	}
	_, ep, ok := strings.Cut(text, "data: ")
	if resp.StatusCode != http.StatusOK || !ok {
		t.Fatalf("GET /sse: %d %q", resp.StatusCode, text)
	}
	return base + strings.TrimSpace(ep)
}

// authSession initializes a Streamable HTTP session with the given
// Authorization and returns its id.
func authSession(t *testing.T, url, auth string) string {
	t.Helper()
	resp, body := rawPost(t, url, initBody, map[string]string{"Authorization": auth})
	sid := resp.Header.Get("Mcp-Session-Id")
	if resp.StatusCode != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	return sid
}

// TestSessionsBoundToCaller checks that a session answers only the caller
// that created it (the Authorization header by default): any other caller
// gets the 404 an unknown session gets, on every transport and method, and
// the session lives on for its owner.
func TestSessionsBoundToCaller(t *testing.T) {
	t.Parallel()
	f := newFixture(t, nil, nil)
	sseTS, _ := newSSEFixture(t, &transport.SSEOptions{MessagePath: "/message"})
	const ping = `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	streamableOpen := func(t *testing.T, creator string) bindingTarget {
		return bindingTarget{sid: authSession(t, f.url, creator)}
	}
	streamable := func(method, body string) func(*testing.T, bindingTarget, string) (int, string) {
		return func(t *testing.T, tg bindingTarget, auth string) (int, string) {
			hdr := map[string]string{"Mcp-Session-Id": tg.sid, "Authorization": auth, "MCP-Protocol-Version": "2025-11-25"}
			if method == http.MethodPost {
				resp, b := rawPost(t, f.url, body, hdr)
				return resp.StatusCode, b
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, method, f.url, nil)
			req.Header.Set("Accept", "text/event-stream")
			for k, v := range hdr {
				if v != "" {
					req.Header.Set(k, v)
				}
			}
			if method == http.MethodGet {
				// A GET stream stays open: read only its status (and the
				// body of an error).
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return resp.StatusCode, ""
				}
				buf := make([]byte, 4096)
				n, _ := resp.Body.Read(buf)
				return resp.StatusCode, string(buf[:n])
			}
			resp, b := do(t, req)
			return resp.StatusCode, b
		}
	}
	// A batch needs a session of revision 2025-03-26, the one with batches.
	batchOpen := func(t *testing.T, creator string) bindingTarget {
		t.Helper()
		resp, body := rawPost(t, f.url, strings.Replace(initBody, "2025-11-25", "2025-03-26", 1), map[string]string{"Authorization": creator})
		sid := resp.Header.Get("Mcp-Session-Id")
		if resp.StatusCode != http.StatusOK || sid == "" {
			t.Fatalf("initialize: %d %s", resp.StatusCode, body)
		}
		return bindingTarget{sid: sid}
	}
	batch := func(t *testing.T, tg bindingTarget, auth string) (int, string) {
		resp, b := rawPost(t, f.url, "["+ping+"]", map[string]string{"Mcp-Session-Id": tg.sid, "Authorization": auth, "MCP-Protocol-Version": "2025-03-26"})
		return resp.StatusCode, b
	}
	methods := []bindingMethod{
		{name: "streamable POST request", open: streamableOpen, send: streamable(http.MethodPost, ping), ok: http.StatusOK},
		{name: "streamable POST batch", open: batchOpen, send: batch, ok: http.StatusOK},
		{name: "streamable POST notification", open: streamableOpen, send: streamable(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`), ok: http.StatusAccepted},
		{name: "streamable GET stream", open: streamableOpen, send: streamable(http.MethodGet, ""), ok: http.StatusOK},
		{name: "streamable DELETE", open: streamableOpen, send: streamable(http.MethodDelete, ""), ok: http.StatusNoContent, ends: true},
		{
			name: "legacy SSE POST /message",
			open: func(t *testing.T, creator string) bindingTarget {
				return bindingTarget{url: openSSESession(t, sseTS.URL, creator)}
			},
			send: func(t *testing.T, tg bindingTarget, auth string) (int, string) {
				resp, b := rawPost(t, tg.url, ping, map[string]string{"Authorization": auth})
				return resp.StatusCode, b
			},
			ok: http.StatusAccepted,
		},
	}
	for i := range methods {
		m := &methods[i]
		if m.name == "legacy SSE POST /message" {
			m.unknown = bindingTarget{url: sseTS.URL + "/message?sessionId=NOSUCHSESSION"}
		} else {
			m.unknown = bindingTarget{sid: "NOSUCHSESSION"}
		}
	}
	const alice, mallory = "Bearer alice", "Bearer mallory"
	callers := []struct {
		name            string
		creator, caller string
		same            bool
	}{
		{"same credentials", alice, alice, true},
		{"other credentials", alice, mallory, false},
		{"no credentials", alice, "", false},
		{"credentials on an anonymous session", "", alice, false},
		{"anonymous on an anonymous session", "", "", true},
	}
	for _, m := range methods {
		for _, c := range callers {
			t.Run(m.name+"/"+c.name, func(t *testing.T) {
				t.Parallel()
				tg := m.open(t, c.creator)
				status, body := m.send(t, tg, c.caller)
				if c.same {
					if status != m.ok {
						t.Fatalf("owner's request: %d %s, want %d", status, body, m.ok)
					}
					return
				}
				if status != http.StatusNotFound {
					t.Fatalf("foreign request: %d %s, want 404", status, body)
				}
				if _, e := jsonRPCError(t, body); e.Code != transport.CodeSessionNotFound {
					t.Errorf("foreign request: error %+v, want code %d", e, transport.CodeSessionNotFound)
				}
				// Nothing tells a foreign session from one that does not exist.
				ustatus, ubody := m.send(t, m.unknown, c.caller)
				if ustatus != status || ubody != body {
					t.Errorf("foreign session answered %d %s; unknown session %d %s", status, body, ustatus, ubody)
				}
				// The session lives on for its owner.
				if status, body := m.send(t, tg, c.creator); status != m.ok {
					t.Errorf("owner's request after the foreign one: %d %s, want %d", status, body, m.ok)
				}
			})
		}
	}
}
