package transport

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// HostPolicy protects an HTTP endpoint against DNS rebinding: a web page
// on an attacker's domain that resolves to 127.0.0.1 must not be able to
// drive a local MCP server from the user's browser. It checks the Host and
// Origin headers of each request.
//
// The Host header is checked against AllowedHosts when it is set; when it
// is empty, the default rule depends on the address the request arrived on
// (the connection's local address):
//
//   - On a loopback address (127.0.0.0/8, ::1), the Host's hostname must be
//     localhost, 127.0.0.1 or ::1 (any port).
//   - On any other IP address, the Host's hostname must be that address
//     itself (a client that connects by IP). A server reached by a name
//     (mcp.example.com) must list it in AllowedHosts: a DNS-rebinding page
//     sends its own name as Host, and a name the server was not told about
//     cannot be told apart from it.
//   - When the local address is unknown or not an IP address (a Unix
//     socket), the Host is not checked.
//
// An Origin header, when present, must be in AllowedOrigins when that is
// set; otherwise it must name a loopback hostname (on a loopback address),
// or the same host and port as the Host header once the Host passed one of
// the checks above. With AllowedHosts "*" on a loopback address, only
// loopback origins pass, as "*" vouches for no name.
//
// Requests without an Origin header (non-browser clients) are never
// rejected for the missing header. A HostPolicy must not be modified while
// in use; its methods are safe for concurrent use.
type HostPolicy struct {
	// AllowedHosts lists the accepted Host header values: a hostname
	// (accepted with any port) or host:port (that port only; write IPv6
	// addresses in brackets: [::1]:8080). "*" accepts any host, turning
	// the Host check off. Empty means the default rule above.
	AllowedHosts []string
	// AllowedOrigins lists the accepted Origin header values, as
	// scheme://host[:port] ("https://app.example.com"). "*" accepts any
	// origin. Empty means the default rule above.
	AllowedOrigins []string
}

// ErrForbiddenHost and ErrForbiddenOrigin are reported by HostPolicy.Check.
var (
	ErrForbiddenHost   = errors.New("transport: Host header not allowed")
	ErrForbiddenOrigin = errors.New("transport: Origin header not allowed")
)

// Check reports whether r passes the policy: nil, or an error wrapping
// ErrForbiddenHost or ErrForbiddenOrigin.
func (p *HostPolicy) Check(r *http.Request) error {
	local := localIP(r)
	loopback := local != nil && local.IsLoopback()
	var allowedHosts, allowedOrigins []string
	if p != nil {
		allowedHosts, allowedOrigins = p.AllowedHosts, p.AllowedOrigins
	}
	host := r.Host
	vetted := true // the Host passed a check of its name
	switch {
	case len(allowedHosts) > 0:
		if !hostAllowed(host, allowedHosts) {
			return fmt.Errorf("%w: %q (not in the allowed hosts)", ErrForbiddenHost, host)
		}
		vetted = !slices.Contains(allowedHosts, "*")
	case loopback:
		if !isLoopbackName(hostname(host)) {
			return fmt.Errorf("%w: %q (the server listens on a loopback address; use localhost, 127.0.0.1 or [::1])", ErrForbiddenHost, host)
		}
	case local != nil:
		if ip := net.ParseIP(hostname(host)); ip == nil || !ip.Equal(local) {
			return fmt.Errorf("%w: %q (the server was reached on %s, not a loopback address, and has no allowed hosts: list the names clients use in AllowedHosts)", ErrForbiddenHost, host, local)
		}
	default:
		vetted = false // unknown local address: the Host is not checked
	}
	origins := r.Header.Values("Origin")
	if len(origins) == 0 {
		return nil
	}
	if len(origins) > 1 {
		return fmt.Errorf("%w: more than one Origin header", ErrForbiddenOrigin)
	}
	origin := origins[0]
	if len(allowedOrigins) > 0 {
		for _, o := range allowedOrigins {
			if o == "*" || strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
				return nil
			}
		}
		return fmt.Errorf("%w: %q", ErrForbiddenOrigin, origin)
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%w: %q", ErrForbiddenOrigin, origin)
	}
	if loopback && isLoopbackName(hostname(u.Host)) {
		return nil
	}
	if loopback && !vetted {
		return fmt.Errorf("%w: %q", ErrForbiddenOrigin, origin)
	}
	if !strings.EqualFold(withDefaultPort(u.Host, u.Scheme), withDefaultPort(host, u.Scheme)) {
		return fmt.Errorf("%w: %q does not match the Host %q", ErrForbiddenOrigin, origin, host)
	}
	return nil
}

// Handler returns h wrapped so that requests failing the policy are
// answered with 403 Forbidden and a JSON-RPC error body (without id). Its
// method value, policy.Handler, is middleware of the usual
// func(http.Handler) http.Handler shape.
func (p *HostPolicy) Handler(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p.admit(w, r) {
			h.ServeHTTP(w, r)
		}
	})
}

// admit reports whether r passes the policy; when it does not, it has
// answered r with 403 Forbidden and a JSON-RPC error body (without id).
func (p *HostPolicy) admit(w http.ResponseWriter, r *http.Request) bool {
	if err := p.Check(r); err != nil {
		writeJSONError(w, http.StatusForbidden, protocol.ID{}, protocol.NewError(protocol.CodeInvalidRequest, "Forbidden: "+strings.TrimPrefix(err.Error(), "transport: ")))
		return false
	}
	return true
}

// localIP returns the IP address r arrived on, or nil when it is unknown
// or not an IP address.
func localIP(r *http.Request) net.IP {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return nil
	}
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP
	}
	h, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return nil
	}
	return net.ParseIP(h)
}

func isLoopbackName(h string) bool {
	switch h {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}

// hostname returns the lower-cased host of a host[:port] value without
// brackets or a trailing dot.
func hostname(hostport string) string {
	h := hostport
	if sh, _, err := net.SplitHostPort(hostport); err == nil {
		h = sh
	}
	h = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(h, "]"), "["), ".")
	return strings.ToLower(h)
}

func hostAllowed(host string, allowed []string) bool {
	name := hostname(host)
	for _, a := range allowed {
		if a == "*" {
			return true
		}
		if _, _, err := net.SplitHostPort(a); err == nil {
			if strings.EqualFold(a, host) {
				return true
			}
			continue
		}
		if hostname(a) == name {
			return true
		}
	}
	return false
}

// withDefaultPort adds the scheme's default port to a host without one.
func withDefaultPort(hostport, scheme string) string {
	if _, _, err := net.SplitHostPort(hostport); err == nil {
		return hostport
	}
	switch strings.ToLower(scheme) {
	case "https", "wss":
		return hostport + ":443"
	default:
		return hostport + ":80"
	}
}
