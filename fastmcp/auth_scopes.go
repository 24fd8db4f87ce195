package fastmcp

import "slices"

// This file holds the scopes the Auth option is told of (HTTPAuth's
// requiredScopes: auth.Protect derives scopes_supported from them), kept
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
