package fastmcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/authinfo"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/session"
	"github.com/fastmcp-go/fastmcp/transport"
)

// This file holds per-feature scopes: RequireScopes, its enforcement on
// every method that uses a tool, prompt or resource, the HTTP step-up
// answer for 2026-07-28 requests, and HideUnauthorized.

// RequireScopes makes a tool, resource, resource template or prompt
// usable over HTTP only by callers whose access token grants every one of
// scopes (the token the Auth option, or auth.RequireBearerToken in front
// of the server, verified; see Context.Auth). Several RequireScopes
// options add up.
//
// A caller without them is refused before the handler runs, with a
// JSON-RPC error (code -32600, message "Insufficient scope", data
// {"requiredScopes": [...], "missingScopes": [...]}); a tools/call,
// prompts/get or resources/read over Streamable HTTP is refused earlier,
// at the HTTP layer (from the Mcp-Method and Mcp-Name headers of a
// 2026-07-28 request, from the body of an earlier revision's), with 403
// and a WWW-Authenticate challenge (error="insufficient_scope", scope naming
// every scope required) that clients answer by asking the user for the
// scopes and retrying. The refusal covers tools/call, prompts/get,
// resources/read (also from Context.ReadResource), resources/subscribe,
// completion/complete for the prompt's arguments or the template's
// variables, and resource subscriptions of subscriptions/listen (left out
// of what the server acknowledges).
//
// 2026-07-28 reads of a protected resource carry cacheScope "private",
// whatever CacheHint says: only callers with the scopes may see them.
//
// A request that came over HTTP without a verified token is refused too,
// so a feature is never served to anonymous callers when the token check
// is missing. Requests that did not come over HTTP (stdio, in-memory,
// command transports) are not checked: authorization does not apply there.
//
// Scopes are compared exactly; a scope that implies others (a broader
// "files" covering "files:read") must be granted by the authorization
// server as each of the scopes required. An empty list, an empty scope, or
// one with spaces, quotes or backslashes (not an RFC 6749 scope token) is
// an error at registration.
func RequireScopes(scopes ...string) CommonOption {
	scopes = slices.Clone(scopes)
	return commonOption(func(c *itemConfig) {
		c.scopes = append(c.scopes, scopes...)
		c.scopesSet = true
	})
}

func (t *tool) requiredScopes() []string             { return t.scopes }
func (p *prompt) requiredScopes() []string           { return p.scopes }
func (r *resource) requiredScopes() []string         { return r.scopes }
func (t *resourceTemplate) requiredScopes() []string { return t.scopes }

// checkScopes checks the RequireScopes of a registration and returns its
// scopes, each once, in the order given.
func checkScopes(kind, name string, cfg *itemConfig) ([]string, error) {
	if !cfg.scopesSet {
		return nil, nil
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("fastmcp: %s %q: RequireScopes: "+format, append([]any{kind, name}, args...)...)
	}
	if len(cfg.scopes) == 0 {
		return nil, fail(`no scope given: name the scopes a caller's token must grant, as in RequireScopes("files:write")`)
	}
	var out []string
	for _, sc := range cfg.scopes {
		if strings.TrimSpace(sc) == "" {
			return nil, fail(`empty scope in %q: name each scope, as in RequireScopes("files:write")`, cfg.scopes)
		}
		if !isScopeToken(sc) {
			return nil, fail(`%q is not a scope (RFC 6749 §3.3 allows no spaces, quotes, backslashes or non-ASCII): pass each scope as its own argument, as in RequireScopes("files:read", "files:write")`, sc)
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out, nil
}

// isScopeToken reports whether s is an RFC 6749 scope-token:
// 1*( %x21 / %x23-5B / %x5D-7E ).
func isScopeToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return s != ""
}

// scopeErrorData is the data of the JSON-RPC error refusing a caller
// without the scopes a feature requires.
type scopeErrorData struct {
	RequiredScopes []string `json:"requiredScopes"`
	MissingScopes  []string `json:"missingScopes"`
}

// authorize returns the JSON-RPC error refusing req when its caller lacks
// some of required, else nil.
func (s *Server) authorize(req *session.Request, required []string) error {
	missing := s.missingScopes(req, required)
	if missing == nil {
		return nil
	}
	// -32600: MCP reserves -32000 to -32099, and uses -32600 itself for a
	// request refused as made (a task-augmented request required, 2025-11-25).
	return protocol.NewError(protocol.CodeInvalidRequest, "Insufficient scope").
		WithData(scopeErrorData{RequiredScopes: required, MissingScopes: missing})
}

// missingScopes returns those of required that req's caller lacks: none
// for requests that did not come over HTTP, all of them for an HTTP
// request without a verified token.
func (s *Server) missingScopes(req *session.Request, required []string) []string {
	if len(required) == 0 || req == nil || req.HTTP == nil {
		return nil
	}
	var info *authinfo.TokenInfo
	if req.HTTP.Context != nil {
		info = authinfo.FromContext(req.HTTP.Context)
	}
	return s.lacking(info, required)
}

// lacking returns those of required that info does not grant; all of them
// when there is no token.
func (s *Server) lacking(info *authinfo.TokenInfo, required []string) []string {
	if len(required) == 0 {
		return nil
	}
	if info == nil {
		s.noTokenWarning.Do(func() {
			s.logger.Warn("a feature with RequireScopes was asked for over HTTP without a verified access token, and refused: protect the endpoint with the Auth option or auth.RequireBearerToken")
		})
		return required
	}
	return info.MissingScopes(required...)
}

// resourceScopes returns the scopes required to read uri: those of the
// static resource, else of the first template that serves it (matches and
// binds its variables), else of the first template that matches it.
func (s *Server) resourceScopes(uri string) []string {
	if !s.resourcesScoped() {
		return nil
	}
	if r, ok := s.resources.static.get(uri); ok {
		return r.scopes
	}
	var first []string
	matched := false
	for _, t := range s.resources.orderedTemplates() {
		vals, ok := t.tmpl.Match(uri)
		if !ok {
			continue
		}
		if _, bad := t.tmpl.DotDot(vals); !bad || t.allowDotDot {
			if _, err := t.args.Bind(vals); err == nil {
				return t.scopes
			}
		}
		if !matched {
			first, matched = t.scopes, true
		}
	}
	return first
}

// resourcesScoped reports whether some resource or template requires
// scopes.
func (s *Server) resourcesScoped() bool {
	return s.resources.static.load().scoped || s.resources.templates.load().scoped
}

// permittedURIs returns those of uris whose resources req's caller may
// read: the resource subscriptions a subscriptions/listen honours.
func (s *Server) permittedURIs(req *session.Request, uris []string) []string {
	scoped := req.HTTP != nil && s.resourcesScoped()
	if len(uris) == 0 || !scoped && !s.selective() {
		return uris
	}
	var out []string
	for _, uri := range uris {
		if s.resourceUsable(req, uri) && (!scoped || s.missingScopes(req, s.resourceScopes(uri)) == nil) {
			out = append(out, uri)
		}
	}
	return out
}

// listPage serves one page of a list method: the cached page, or, with
// HideUnauthorized, for an HTTP caller of a list with protected entries, a
// page of the entries the caller may use.
func listPage[T entry](s *Server, r *registry[T], field string, req *lowlevel.Request) (jsontext.Value, error) {
	return listPageFor(s, r, field, req, listFilter[T]{})
}

// listFilter adapts a list to its caller: which entries it sees (keep;
// nil: all) and how each is encoded (enc; nil: as registered); private
// alone marks a page that differs between callers.
type listFilter[T entry] struct {
	keep    func(T) bool
	enc     func(T) jsontext.Value
	private bool
}

// listPageFor is listPage with a filter. A filtered page is built for the
// request, not cached, and marked private (2026-07-28).
func listPageFor[T entry](s *Server, r *registry[T], field string, req *lowlevel.Request, f listFilter[T]) (jsontext.Value, error) {
	cursor, err := listCursor(req)
	if err != nil {
		return nil, err
	}
	snap := r.load()
	scoped := s.cfg.hideUnauth && req.HTTP != nil && snap.scoped
	visibility := s.cfg.visibility
	if !scoped && visibility == nil && f.keep == nil && f.enc == nil && !f.private {
		return r.page(field, cursor, s.cfg.pageSize)
	}
	items, more, err := snap.slice(cursor, s.cfg.pageSize, func(e T) bool {
		if f.keep != nil && !f.keep(e) {
			return false
		}
		if visibility != nil && !visibility(req, e.component()) {
			return false
		}
		return !scoped || s.missingScopes(req, e.requiredScopes()) == nil
	})
	if err != nil {
		return nil, err
	}
	extra := ""
	if req.Era.CacheHints() {
		extra = `"cacheScope":"` + string(protocol.CacheScopePrivate) + `"`
	}
	return encodePage(field, items, more, extra, f.enc), nil
}

// scopeGate wraps the Streamable HTTP endpoint so that a request for a
// tool, prompt or resource that requires scopes the caller's token lacks
// is answered 403 with an insufficient_scope challenge, which MCP clients
// answer by asking for a token with those scopes (step-up). A 2026-07-28
// request is judged by its Mcp-Method and Mcp-Name headers, before its
// body is read (the transport refuses a body that does not match them);
// an earlier revision's POST of one request, which has no such headers,
// by its body's method and name or uri, read here (within maxBody and
// readTimeout, as the transport would) and handed on unchanged. A server
// where no feature requires scopes checks nothing here. Everything else
// goes to next, where the JSON-RPC check applies (a batch, for one). The
// token comes from the request's context: the bearer check runs before
// this handler.
func (s *Server) scopeGate(next http.Handler, maxBody int64, readTimeout time.Duration) http.Handler {
	if maxBody <= 0 {
		maxBody = transport.DefaultMaxMessageSize
	}
	if readTimeout == 0 {
		readTimeout = transport.DefaultReadBodyTimeout
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && s.anyScoped() {
			var required []string
			if protocol.EraOf(r.Header.Get(transport.HeaderProtocolVersion)).RoutingHeaders() {
				required = s.headerScopes(r.Header)
			} else {
				required = s.bodyScopes(w, r, maxBody, readTimeout)
			}
			if required != nil && s.lacking(authinfo.FromContext(r.Context()), required) != nil {
				// Named with the base scopes and metadata URL the bearer
				// middleware recorded (authinfo.WithChallenge).
				authinfo.WriteInsufficientScope(w, r, "", required...)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// anyScoped reports whether some tool, prompt or resource requires scopes.
func (s *Server) anyScoped() bool {
	return s.tools.load().scoped || s.prompts.reg.load().scoped || s.resourcesScoped()
}

// bodyScopes reads r's body and returns the scopes required by the tool,
// prompt or resource the one request in it names (nil for anything else:
// a notification, a batch, a body that is not JSON). r.Body is replaced by
// one that gives the next handler the same bytes, and the same error when
// the read failed (too slow, too large: the transport answers those).
func (s *Server) bodyScopes(w http.ResponseWriter, r *http.Request, maxBody int64, readTimeout time.Duration) []string {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	if readTimeout > 0 {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(readTimeout))
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	rest := r.Body
	switch {
	case err != nil:
		rest = io.NopCloser(errReader{err})
	case int64(len(body)) <= maxBody:
		rest = http.NoBody
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), r.Body}
	if err != nil || int64(len(body)) > maxBody {
		return nil
	}
	method, _ := protocol.Member(body, "method")
	params, _ := protocol.Member(body, "params")
	var m string
	if json.Unmarshal(method, &m) != nil {
		return nil
	}
	member := "name"
	if m == protocol.MethodResourcesRead {
		member = "uri"
	}
	raw, _ := protocol.Member(params, member)
	var name string
	if json.Unmarshal(raw, &name) != nil {
		return nil
	}
	return s.featureScopes(m, name)
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// headerScopes returns the scopes required by the tool, prompt or resource
// a 2026-07-28 request's Mcp-Method and Mcp-Name headers name; nil when
// the headers name none that requires scopes, or are not there or not
// well formed (the transport answers those).
func (s *Server) headerScopes(h http.Header) []string {
	methods, names := h.Values(transport.HeaderMethod), h.Values(transport.HeaderName)
	if len(methods) != 1 || len(names) != 1 {
		return nil
	}
	name, err := transport.DecodeHeaderValue(names[0])
	if err != nil {
		return nil
	}
	return s.featureScopes(strings.Trim(methods[0], " \t"), name)
}

// featureScopes returns the scopes required by the tool (tools/call),
// prompt (prompts/get) or resource (resources/read) a request for method
// names; nil for other methods and for what requires none.
func (s *Server) featureScopes(method, name string) []string {
	switch method {
	case protocol.MethodToolsCall:
		if t, ok := s.tools.get(name); ok {
			return t.scopes
		}
	case protocol.MethodPromptsGet:
		if p, ok := s.prompts.reg.get(name); ok {
			return p.scopes
		}
	case protocol.MethodResourcesRead:
		return s.resourceScopes(name)
	}
	return nil
}
