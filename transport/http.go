package transport

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// HTTP header names used by the MCP HTTP transports. Header names are
// case-insensitive; these are the canonical spellings.
const (
	HeaderSessionID       = "Mcp-Session-Id"
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	HeaderMethod          = "Mcp-Method"
	HeaderName            = "Mcp-Name"
	HeaderLastEventID     = "Last-Event-Id"
)

// ConnInfo describes a Conn handed to a connect function by an HTTP
// handler (see NewStreamableHandler and NewSSEHandler), so the function can
// start the right kind of session.
type ConnInfo struct {
	// Stateless reports that the Conn carries one HTTP request and its
	// answer, not a session: it ends as soon as the answer is written (or
	// the client goes away). Server-to-client requests cannot be answered
	// on such a Conn.
	Stateless bool
	// Version, when not empty, is the protocol revision to serve the Conn
	// at as if the initialize handshake had already negotiated it
	// (session.Options.Version). It is set for stateless Conns, except for
	// one carrying an initialize request.
	Version string
	// SessionID is the Mcp-Session-Id (Streamable HTTP) or sessionId query
	// parameter (legacy HTTP+SSE) the handler issued for the Conn; empty
	// for stateless Conns.
	SessionID string
	// Principal identifies the caller that created the session (see
	// HTTPOptions.Principal); every request of the session has it. Empty
	// for stateless Conns and callers without credentials.
	Principal string
	// Adopted is set when the Conn continues a session that another
	// replica initialized (see HTTPOptions.Sessions): the session is to be
	// served as already initialized, with what the client said then.
	Adopted *AdoptedSession
	// RequestIDPrefix, when set, is to start the (string) ids of the
	// requests the server sends on the Conn (session.Options.
	// RequestIDPrefix): the handler routes the client's answers to the
	// replica whose prefix they carry.
	RequestIDPrefix string
}

// AdoptedSession is what a replica knows of a session it takes over
// from the session store: the outcome of the initialize handshake that
// another replica served.
type AdoptedSession struct {
	// Version is the protocol revision the handshake negotiated.
	Version string
	// InitializeParams are the params of the client's initialize
	// request, as sent: its capabilities and clientInfo.
	InitializeParams json.RawMessage
}

// HTTPRequestInfo is what the HTTP transports know about the HTTP request
// that carried an incoming JSON-RPC message. The server handlers attach it
// to the message; handlers read it as session.Request.HTTP, and fastmcp
// tools, resources and prompts as Context.HTTPRequest, to check custom
// headers (Mcp-Param-*, Authorization, ...) or the caller's address.
//
// It is shared by every reader of the message and must not be modified.
type HTTPRequestInfo struct {
	// Header holds the HTTP request headers.
	Header http.Header
	// Host is the Host the request was sent to.
	Host string
	// RemoteAddr is the client's network address, as in http.Request.
	RemoteAddr string
	// SessionID is the session the request belongs to (Mcp-Session-Id, or
	// the legacy transport's sessionId); empty for stateless requests.
	SessionID string
	// Principal identifies the caller, as the handler's Principal function
	// (by default DefaultPrincipal) computed it; the session the request
	// belongs to is bound to it.
	Principal string
	// Context is the HTTP request's context, for the values HTTP
	// middleware put in it, such as the verified access token
	// (auth.TokenInfoFrom). Read its values only: it may be done by the
	// time a handler runs (the legacy HTTP+SSE transport answers a POST
	// with 202 before the message is handled), and the request's own
	// cancellation reaches the handler through session.Request's context.
	Context context.Context
}

func requestInfo(r *http.Request, sessionID, principal string) *HTTPRequestInfo {
	return &HTTPRequestInfo{Header: r.Header, Host: r.Host, RemoteAddr: r.RemoteAddr, SessionID: sessionID, Principal: principal, Context: r.Context()}
}

// ErrSessionExpired is returned by the Streamable HTTP client (from Write,
// and as the reason the Conn ended, from Read) when the server answers a
// request that carries a session id with 404 Not Found: the session expired
// or was terminated, and the client must start a new one.
var ErrSessionExpired = errors.New("transport: HTTP session expired or terminated by the server")

// HTTPError reports an HTTP request that failed with an unexpected status.
type HTTPError struct {
	// Method and URL identify the request.
	Method, URL string
	// StatusCode is the response's status code.
	StatusCode int
	// Header holds the response headers (for example WWW-Authenticate on a
	// 401 answer).
	Header http.Header
	// Body holds the start of the response body (at most 4 KiB).
	Body []byte
}

// Error describes the failed request and the start of the response body.
func (e *HTTPError) Error() string {
	msg := fmt.Sprintf("transport: %s %s: HTTP %d %s", e.Method, e.URL, e.StatusCode, http.StatusText(e.StatusCode))
	if b := bytes.TrimSpace(e.Body); len(b) > 0 {
		if len(b) > 200 {
			b = b[:200]
		}
		msg += ": " + string(b)
	}
	return msg
}

// Media types.
const (
	mediaJSON = "application/json"
	mediaSSE  = "text/event-stream"
)

// accepts reports whether the Accept header values admit media type mt
// ("type/subtype"). No Accept header means anything is acceptable (RFC 9110
// §12.5.1); wildcards ("*/*", "type/*") match; a range with q=0 excludes.
func accepts(values []string, mt string) bool {
	if len(values) == 0 {
		return true
	}
	typ, _, _ := strings.Cut(mt, "/")
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			rng, params, _ := strings.Cut(part, ";")
			rng = strings.ToLower(strings.TrimSpace(rng))
			if rng != mt && rng != "*/*" && rng != typ+"/*" {
				continue
			}
			if q, ok := paramValue(params, "q"); ok && isZeroQ(q) {
				continue
			}
			return true
		}
	}
	return false
}

func paramValue(params, name string) (string, bool) {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

func isZeroQ(q string) bool {
	q = strings.TrimRight(q, "0")
	return q == "0." || q == "0" || q == ""
}

// mediaType returns the lower-cased media type of a Content-Type value.
func mediaType(ct string) string {
	if ct == "" || ct == mediaJSON || ct == mediaSSE {
		return ct
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
		return strings.ToLower(strings.TrimSpace(mt))
	}
	return mt
}

// bufPool recycles encoding and body buffers.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

func putBuf(b *[]byte) {
	if cap(*b) > 64<<10 {
		return // let large buffers go
	}
	*b = (*b)[:0]
	bufPool.Put(b)
}

// writeJSONError answers with status and a JSON-RPC error response for id
// (the zero ID encodes as null).
func writeJSONError(w http.ResponseWriter, status int, id protocol.ID, e *protocol.Error) {
	b, err := protocol.AppendMessage(nil, &protocol.Response{ID: id, Error: e})
	if err != nil {
		http.Error(w, e.Message, status)
		return
	}
	h := w.Header()
	h.Set("Content-Type", mediaJSON)
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Base64 sentinel encoding of header values (2026-07-28 "Value Encoding").
const (
	sentinelPrefix = "=?base64?"
	sentinelSuffix = "?="
)

// EncodeHeaderValue returns v as an MCP header value (Mcp-Name,
// Mcp-Param-*): v itself when it is plain visible ASCII (spaces and tabs
// allowed inside, not at either end), else the Base64 sentinel form
// "=?base64?…?=" of its UTF-8 bytes. A plain value that looks like a
// sentinel is encoded too, so decoding is unambiguous.
func EncodeHeaderValue(v string) string {
	if isPlainHeaderValue(v) && !(strings.HasPrefix(v, sentinelPrefix) && strings.HasSuffix(v, sentinelSuffix)) {
		return v
	}
	return sentinelPrefix + base64.StdEncoding.EncodeToString([]byte(v)) + sentinelSuffix
}

// DecodeHeaderValue decodes an MCP header value written by
// EncodeHeaderValue: a "=?base64?…?=" value is Base64-decoded (standard
// alphabet, padding required), anything else is returned as it is after
// trimming surrounding spaces and tabs. It fails on invalid Base64, on
// decoded bytes that are not UTF-8, and on control characters in a plain
// value.
func DecodeHeaderValue(v string) (string, error) {
	v = strings.Trim(v, " \t")
	if strings.HasPrefix(v, sentinelPrefix) && strings.HasSuffix(v, sentinelSuffix) && len(v) >= len(sentinelPrefix)+len(sentinelSuffix) {
		enc := v[len(sentinelPrefix) : len(v)-len(sentinelSuffix)]
		b, err := base64.StdEncoding.Strict().DecodeString(enc)
		if err != nil {
			return "", fmt.Errorf("transport: invalid Base64 in header value: %w", err)
		}
		if !utf8.Valid(b) {
			return "", errors.New("transport: Base64 header value is not UTF-8")
		}
		return string(b), nil
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return "", errors.New("transport: control character in header value")
		}
	}
	return v, nil
}

func isPlainHeaderValue(v string) bool {
	if v == "" {
		return true
	}
	if v[0] == ' ' || v[0] == '\t' || v[len(v)-1] == ' ' || v[len(v)-1] == '\t' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}
