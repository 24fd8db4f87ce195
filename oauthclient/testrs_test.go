package oauthclient_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

// counts returns how many authorization, token and registration
// requests as received.
func counts(as *oauthtest.Server) (auths, tokens, regs int) {
	return len(as.Requests("authorize")), len(as.Requests("token")), len(as.Requests("register"))
}

// boundTo returns the thumbprint of the DPoP key an access token as
// issued is bound to, or "".
func boundTo(as *oauthtest.Server, token string) string {
	claims, _ := as.Check(token)
	cnf, _ := claims["cnf"].(map[string]any)
	jkt, _ := cnf["jkt"].(string)
	return jkt
}

// testRS is an in-test MCP resource server: "/mcp" answers 200 "ok" to a
// request with a token its authorization server issued that has the
// scopes needed, 401 without one, 403 insufficient_scope with too few
// scopes; the protected resource metadata is at a configurable path.
type testRS struct {
	srv *httptest.Server
	as  func() *oauthtest.Server // the authorization server named in the metadata

	prmPath   string // default "/.well-known/oauth-protected-resource/mcp"; "-" for none
	noHint    bool   // no resource_metadata in challenges
	resource  string // resource in the metadata; default srv.URL + "/mcp"
	prmScopes []string
	hintScope bool     // scope in 401 challenges
	need      []string // scopes every request needs
	stepUp    []string // more scopes needed by POSTs
	// legacy, when set, serves every other path: a 2025-03-26 server,
	// with its authorization server at its own origin; legacyNoMetadata
	// hides that server's metadata, leaving the default endpoints.
	legacy           *oauthtest.Server
	legacyNoMetadata bool
	dpopNonce        string // nonce DPoP proofs must carry

	mu    sync.Mutex
	calls int
	seen  []string // Authorization headers
}

func newTestRS(t *testing.T, as func() *oauthtest.Server, configure func(*testRS)) *testRS {
	t.Helper()
	rs := &testRS{as: as, prmPath: "/.well-known/oauth-protected-resource/mcp"}
	if configure != nil {
		configure(rs)
	}
	rs.srv = httptest.NewServer(http.HandlerFunc(rs.serve))
	if rs.legacy != nil {
		rs.legacy.SetBaseURL(rs.srv.URL)
	}
	t.Cleanup(rs.srv.Close)
	return rs
}

func (rs *testRS) URL() string { return rs.srv.URL + "/mcp" }

func (rs *testRS) serve(w http.ResponseWriter, r *http.Request) {
	if rs.prmPath != "-" && r.URL.Path == rs.prmPath {
		res := rs.resource
		switch res {
		case "":
			res = rs.URL()
		case "origin":
			res = rs.srv.URL
		}
		m := map[string]any{"resource": res, "authorization_servers": []string{rs.as().URL()}}
		if rs.prmScopes != nil {
			m["scopes_supported"] = rs.prmScopes
		}
		writeJSON(w, http.StatusOK, m)
		return
	}
	if r.URL.Path != "/mcp" {
		if rs.legacy != nil && !(rs.legacyNoMetadata && strings.HasPrefix(r.URL.Path, "/.well-known/")) {
			rs.legacy.ServeHTTP(w, r)
			return
		}
		http.NotFound(w, r)
		return
	}
	io.Copy(io.Discard, r.Body)
	rs.mu.Lock()
	rs.calls++
	rs.seen = append(rs.seen, r.Header.Get("Authorization"))
	rs.mu.Unlock()
	need := rs.need
	if r.Method == http.MethodPost {
		need = append(slices.Clone(need), rs.stepUp...)
	}
	challenge := func(code string, scopes []string) string {
		var parts []string
		if code != "" {
			parts = append(parts, `error="`+code+`"`)
		}
		if len(scopes) > 0 && (rs.hintScope || code == "insufficient_scope") {
			parts = append(parts, `scope="`+strings.Join(scopes, " ")+`"`)
		}
		if !rs.noHint && rs.prmPath != "-" {
			parts = append(parts, `resource_metadata="`+rs.srv.URL+rs.prmPath+`"`)
		}
		return "Bearer " + strings.Join(parts, ", ")
	}
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if token == "" {
		w.Header().Set("WWW-Authenticate", challenge("", rs.need))
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if jkt := boundTo(rs.as(), token); jkt != "" || scheme == "DPoP" {
		claims, thumb, err := oauthtest.CheckDPoPProof(r.Header.Get("DPoP"), r.Method, rs.URL(), token)
		if err != nil || scheme != "DPoP" || thumb != jkt {
			w.Header().Set("WWW-Authenticate", `DPoP error="invalid_token"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if rs.dpopNonce != "" && claims["nonce"] != rs.dpopNonce {
			w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
			w.Header().Set("DPoP-Nonce", rs.dpopNonce)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
	} else if scheme != "Bearer" {
		w.Header().Set("WWW-Authenticate", challenge("", rs.need))
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	granted, ok := rs.as().Scopes(token)
	if !ok {
		w.Header().Set("WWW-Authenticate", challenge("invalid_token", rs.need))
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	for _, s := range need {
		if !slices.Contains(granted, s) {
			w.Header().Set("WWW-Authenticate", challenge("insufficient_scope", need))
			w.WriteHeader(http.StatusForbidden)
			return
		}
	}
	io.WriteString(w, "ok")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// browser plays the user's browser for Config.OpenURL: it follows the
// authorization page's redirects back to the client's listener.
func browser(ctx context.Context, authURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	c := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

// The well-known locations of authorization server metadata (RFC 8414,
// OpenID Connect Discovery), for tamper.only.
const (
	oauthMetadata = "/.well-known/oauth-authorization-server"
	oidcMetadata  = "/.well-known/openid-configuration"
)

// tamper is how newTampered makes oauthtest misbehave, for the tests of
// what a client must refuse.
type tamper struct {
	// metadata edits the authorization server metadata; iss is the real
	// issuer.
	metadata func(m map[string]any, iss string)
	// redirect edits the authorization response sent back to the client.
	redirect func(q url.Values, iss string)
	// only, when set, is the one well-known path the metadata is served
	// at (the others answer 404).
	only string
}

// newTampered starts an oauthtest server behind a handler that edits its
// answers as tp says.
func newTampered(t *testing.T, opts oauthtest.Options, tp tamper) *oauthtest.Server {
	t.Helper()
	as, err := oauthtest.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wellKnown := strings.Contains(r.URL.Path, "/.well-known/")
		if wellKnown && tp.only != "" && r.URL.Path != tp.only {
			http.NotFound(w, r)
			return
		}
		edit := (wellKnown && tp.metadata != nil) || (strings.HasSuffix(r.URL.Path, "/authorize") && tp.redirect != nil)
		if !edit {
			as.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		as.ServeHTTP(rec, r)
		if wellKnown {
			var m map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil || rec.Code != http.StatusOK {
				w.WriteHeader(rec.Code)
				return
			}
			tp.metadata(m, as.URL())
			writeJSON(w, http.StatusOK, m)
			return
		}
		loc, err := url.Parse(rec.Header().Get("Location"))
		if err != nil || rec.Code != http.StatusFound {
			w.WriteHeader(rec.Code)
			return
		}
		q := loc.Query()
		tp.redirect(q, as.URL())
		loc.RawQuery = q.Encode()
		http.Redirect(w, r, loc.String(), http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	as.SetBaseURL(srv.URL)
	return as
}
