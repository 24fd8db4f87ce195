package fastmcp

import (
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/fastmcp-go/fastmcp/auth"
)

// This file holds the scopes the Auth option advertises: scopes_supported
// derived from Bearer.Scopes and the scopes RequireScopes names, kept
// current as features come and go.

// requiredScopes returns every scope some tool, prompt, resource or
// resource template requires (RequireScopes), each once, ordered by
// feature kind and then by name.
func (s *Server) requiredScopes() []string {
	var out []string
	add := func(scopes []string) { out = appendScopes(out, scopes) }
	collect(s.tools.load(), add)
	collect(s.prompts.reg.load(), add)
	collect(s.resources.static.load(), add)
	collect(s.resources.templates.load(), add)
	return out
}

// appendScopes appends to dst those of scopes it does not hold yet.
func appendScopes(dst, scopes []string) []string {
	for _, sc := range scopes {
		if !slices.Contains(dst, sc) {
			dst = append(dst, sc)
		}
	}
	return dst
}

// collect passes the required scopes of each entry of snap to add.
func collect[T entry](snap *snapshot[T], add func([]string)) {
	if !snap.scoped {
		return
	}
	for _, e := range snap.sorted {
		add(e.requiredScopes())
	}
}

// scopedMetadata serves the protected resource metadata with
// scopes_supported made of the base scopes (Bearer.Scopes) and those
// required returns, as they are when the document is asked for: features
// registered after New, or removed, show in the next answer.
type scopedMetadata struct {
	doc      auth.ProtectedResourceMetadata // without the derived scopes
	base     []string
	required func() []string

	mu   sync.Mutex
	key  string       // the scopes h serves, space-separated
	h    http.Handler // nil until the first request
	herr error
}

func (m *scopedMetadata) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	scopes := appendScopes(slices.Clone(m.base), m.required())
	key := strings.Join(scopes, " ")
	m.mu.Lock()
	if m.h == nil || m.key != key {
		doc := m.doc
		doc.ScopesSupported = scopes
		m.h, m.herr = auth.MetadataHandler(&doc)
		m.key = key
	}
	h, err := m.h, m.herr
	m.mu.Unlock()
	if err != nil { // checked in newAuthState: not expected
		http.Error(w, "protected resource metadata unavailable", http.StatusInternalServerError)
		return
	}
	h.ServeHTTP(w, r)
}
