package transport

import (
	"net/http"
	"strings"
)

// corsExposed are the response headers a browser lets a cross-origin
// client read: the session and protocol headers, and the challenges an
// OAuth client follows (WWW-Authenticate, DPoP-Nonce).
const corsExposed = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, DPoP-Nonce"

// corsMethods are the methods an MCP endpoint serves.
const corsMethods = "GET, POST, DELETE, OPTIONS"

// CORS returns h wrapped so that browser-based clients on the origins the
// policy admits (see Check) can use it cross-origin: it answers their
// preflight requests (OPTIONS with Access-Control-Request-Method) itself,
// with the methods an MCP endpoint serves and the request headers the
// browser asks for, and adds Access-Control-Allow-Origin to every response
// for them, 401 and 403 challenges included, exposing Mcp-Session-Id,
// Mcp-Protocol-Version, WWW-Authenticate and DPoP-Nonce. Requests from
// origins the policy refuses get no CORS headers (their preflight gets
// 403), so the browser keeps them out; requests without an Origin header
// pass through untouched. Credentials (cookies) are never allowed: MCP
// clients send tokens in the Authorization header.
//
// Put it outermost, in front of any authorization middleware, since a
// preflight carries no credentials:
//
//	mux.Handle("/mcp", policy.CORS(requireToken(endpoint)))
//
// fastmcp.Server does this for its own endpoints.
func (p *HostPolicy) CORS(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := r.Header.Get("Origin")
		if origin == "" {
			h.ServeHTTP(w, r)
			return
		}
		allowed := p.Check(r) == nil
		preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
		hd := w.Header()
		hd.Add("Vary", "Origin")
		if preflight {
			hd.Add("Vary", "Access-Control-Request-Method")
			hd.Add("Vary", "Access-Control-Request-Headers")
			if !allowed {
				w.WriteHeader(http.StatusForbidden)
				return
			}
			hd.Set("Access-Control-Allow-Origin", origin)
			hd.Set("Access-Control-Allow-Methods", corsMethods)
			if req := requestedHeaders(r); req != "" {
				hd.Set("Access-Control-Allow-Headers", req)
			}
			hd.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if allowed {
			hd.Set("Access-Control-Allow-Origin", origin)
			hd.Set("Access-Control-Expose-Headers", corsExposed)
		}
		h.ServeHTTP(w, r)
	})
}

// requestedHeaders returns the header names of the preflight's
// Access-Control-Request-Headers that are valid tokens, comma-separated:
// the names an MCP request may carry are open-ended (Mcp-Param-* headers
// are named by the tool), so every well-formed name the browser asks for
// is allowed; the endpoint checks the values.
func requestedHeaders(r *http.Request) string {
	var names []string
	for _, v := range r.Header.Values("Access-Control-Request-Headers") {
		for name := range strings.SplitSeq(v, ",") {
			name = strings.TrimSpace(name)
			if name != "" && isToken(name) {
				names = append(names, name)
			}
		}
	}
	return strings.Join(names, ", ")
}

// isToken reports whether s is an HTTP token (RFC 9110 §5.6.2), the
// syntax of a header name.
func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0:
		default:
			return false
		}
	}
	return len(s) > 0
}
