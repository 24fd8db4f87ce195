package fastmcp

import (
	"sync"
	"sync/atomic"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// What every server needs of the MCP Apps extension: whether some tool has
// _meta.ui, and the lists it changes. The rest, in apps.go, is linked only
// by programs that use WithToolUI (package apps's options) or a proxy (package proxy).

// appState is the views registered with tools; s.mu guards views.
type appState struct {
	views map[string]*ToolView // by URI: a copy of what was registered
	any   atomic.Bool          // some tool has _meta.ui: lists depend on the client
	// clientSupports is appswire.ClientSupports, set (once) before any
	// becomes true.
	clientSupports func(*protocol.ClientCapabilities) bool
	once           sync.Once
}

// use records that some tool has _meta.ui; supports is appswire.ClientSupports,
// passed by the code that has the extension's options in hand.
func (a *appState) use(supports func(*protocol.ClientCapabilities) bool) {
	a.once.Do(func() { a.clientSupports = supports })
	a.any.Store(true)
}

// rendersViews reports whether the client of req renders views; when no
// tool has _meta.ui it does not matter, and the answer is true (lists are
// served as registered).
func (s *Server) rendersViews(req *lowlevel.Request) bool {
	return !s.apps.any.Load() || s.apps.clientSupports(req.ClientCapabilities())
}

// appsFilter returns the filter of a list that depends on whether the
// client renders views: fallback for one that does not; for one that does,
// the list as registered, but private, since a cache shared with other
// clients must not hand it to one that does not.
func appsFilter[T entry](s *Server, req *lowlevel.Request, fallback listFilter[T]) listFilter[T] {
	switch {
	case !s.apps.any.Load():
		return listFilter[T]{}
	case s.apps.clientSupports(req.ClientCapabilities()):
		return listFilter[T]{private: true}
	}
	return fallback
}

// fallbackTools is the tools/list a client that does not render views
// gets: no app-only tools, and the others without _meta.ui.
var fallbackTools = listFilter[*tool]{
	keep: func(t *tool) bool { return !t.appOnly },
	enc: func(t *tool) jsontext.Value {
		if t.plain != nil {
			return t.plain
		}
		return t.enc
	},
}

// fallbackResources is the resources/list such a client gets: no views.
var fallbackResources = listFilter[*resource]{keep: func(r *resource) bool { return !r.view }}
