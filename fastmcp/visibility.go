package fastmcp

import (
	"github.com/fastmcp-go/fastmcp/session"
)

// Visibility decides, for every request, which components its caller may
// see and use: fn is asked about each component a list would show and each
// one a call, read, get, completion or subscription names, and a component
// for which it returns false is neither listed to that caller nor usable by
// them (a call fails as for an unknown name, a read as for an unknown URI).
// Components out of service for everyone (Server.Disable) are not asked
// about.
//
// fn sees the request: its session (r.Session), its HTTP request when it
// came over HTTP (r.HTTP: the caller's principal in r.HTTP.Principal, the
// verified access token through authinfo.FromContext(r.HTTP.Context)), and
// the client (r.ClientInfo(), r.ClientCapabilities()). It runs on every
// list and call, so it must be fast and must not block; it may run
// concurrently. Lists filtered by it are private to their caller (the
// 2026-07-28 cacheScope "private").
//
//	fastmcp.Visibility(func(r *session.Request, c fastmcp.Component) bool {
//		return !c.HasTag("admin") || isAdmin(r)
//	})
func Visibility(fn func(r *session.Request, c Component) bool) Option {
	return serverOption(func(c *serverConfig) { c.visibility = fn })
}

// usable reports whether req's caller may use c: it is enabled and
// visible to them.
func (s *Server) usable(req *session.Request, c Component) bool {
	return s.switches.enabled(c) && (s.cfg.visibility == nil || s.cfg.visibility(req, c))
}

// selective reports whether some component may be out of a caller's
// reach: Disable was called or a Visibility function is set.
func (s *Server) selective() bool {
	return s.cfg.visibility != nil || s.switches.rules.Load() != nil
}

// resourceUsable reports whether req's caller may read (or subscribe to)
// uri as far as Enable, Disable and Visibility go: the static resource at
// uri is usable, or, without one, some template matching uri is (or none
// matches: the read fails on its own then).
func (s *Server) resourceUsable(req *session.Request, uri string) bool {
	if !s.selective() {
		return true
	}
	if r, ok := s.resources.static.registered(uri); ok {
		return s.usable(req, r.component())
	}
	matched := false
	for _, t := range s.resources.orderedTemplates() {
		if t.tmpl == nil {
			continue
		}
		if _, ok := t.tmpl.Match(uri); !ok {
			continue
		}
		if s.usable(req, t.component()) {
			return true
		}
		matched = true
	}
	return !matched
}
