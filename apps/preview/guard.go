package preview

import (
	"crypto/subtle"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// TokenHeader is the request header that carries the per-run token the
// page's JSON endpoints require.
const TokenHeader = "X-Fastmcp-Preview-Token"

// loopbackHost reports whether a Host header (host or host:port) names
// this machine: localhost or a loopback IP address. A DNS name that an
// attacker's page rebinds to 127.0.0.1 still arrives with the attacker's
// name in Host, so it is refused.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// loopbackOrigin reports whether origin is an http origin on a loopback
// host, e.g. "http://127.0.0.1:8080".
func loopbackOrigin(origin string) bool {
	rest, ok := strings.CutPrefix(origin, "http://")
	return ok && rest != "" && !strings.ContainsAny(rest, "/?#@") && loopbackHost(rest)
}

// requireLoopback refuses requests whose Host is not a loopback name.
func requireLoopback(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "preview: the preview serves only 127.0.0.1 and localhost (Host "+r.Host+" refused)", http.StatusMisdirectedRequest)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// requireToken guards a JSON endpoint: POST only, a same-origin Origin
// header when the browser sends one, and the run's token.
func requireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeError(w, http.StatusMethodNotAllowed, "use POST")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			writeError(w, http.StatusForbidden, "cross-origin request refused (Origin "+o+")")
			return
		}
		got := r.Header.Get(TokenHeader)
		if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			writeError(w, http.StatusForbidden, "missing or wrong "+TokenHeader)
			return
		}
		next.ServeHTTP(w, r)
	})
}
