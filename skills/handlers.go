package skills

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/internal/cursor"
	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// registering serialises the registrations of every server: finding a
// server's state, or installing it, happens under it. Registration is
// rare; serving takes no lock.
var registering sync.Mutex

// state holds the skills of one server. It is the lowlevel.Handler of the
// extension's methods, so stateOf finds it in the server's method table.
type state struct {
	pageSize int
	skills   map[string]*skill // by SKILL.md URI; registering guards it
	view     atomic.Pointer[view]
}

// view is what requests read: the skills in URI order, and every URI of
// their files and directories. A file or directory of a nested skill maps
// to either skill, which serve the same bytes.
type view struct {
	sorted []*skill
	byURI  map[string]*skill // by SKILL.md URI
	files  map[string]*skillFile
	dirs   map[string]*skill
}

// stateOf returns the skills state installed on s, or nil; registering held.
func stateOf(s *fastmcp.Server) *state {
	h, _ := s.Lowlevel().Lookup(protocol.MethodSkillsList)
	st, _ := h.(*state)
	return st
}

// register adds skills to s, all or none: each SKILL.md becomes a listed
// resource, and on first use the extension is declared and its methods
// installed.
func register(s *fastmcp.Server, skills []*skill) error {
	registering.Lock()
	defer registering.Unlock()
	st := stateOf(s)
	installed := st != nil
	if !installed {
		st = &state{pageSize: s.PageSize(), skills: map[string]*skill{}}
	}
	seen := map[string]bool{}
	for _, k := range skills {
		uri := k.entry.URI
		if st.skills[uri] != nil || seen[uri] {
			return fmt.Errorf("skills: %s is already registered: call skills.Remove first", uri)
		}
		seen[uri] = true
	}
	for i, k := range skills {
		if err := addManifest(s, k); err != nil {
			for _, done := range skills[:i] {
				s.RemoveResource(done.entry.URI)
			}
			return fmt.Errorf("skills: %s: %w", k.entry.URI, err)
		}
	}
	for _, k := range skills {
		st.skills[k.entry.URI] = k
	}
	st.publish()
	if !installed {
		st.install(s)
	}
	return nil
}

// addManifest registers a skill's SKILL.md as a listed resource, named and
// described by its frontmatter. The registration's panic (a URI the server
// holds already, say) is returned as the error it is.
func addManifest(s *fastmcp.Server, k *skill) (err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok || !errors.Is(e, fastmcp.ErrRegistration) {
				panic(r)
			}
			err = e
		}
	}()
	f := k.files[k.entry.URI]
	desc, _ := k.entry.Frontmatter["description"].(string)
	s.Resource(k.entry.URI, func() fastmcp.ResourceContents { return f.contents() },
		fastmcp.ResourceName(k.name), fastmcp.Description(desc), fastmcp.MIMEType(f.mime), fastmcp.ResourceSize(int64(len(f.data))))
	return nil
}

// install declares the extension (with directoryRead) and serves its
// methods and the skills' files; registering held.
func (st *state) install(s *fastmcp.Server) {
	settings, _ := json.Marshal(protocol.SkillsCapability{DirectoryRead: true})
	ll := s.Lowlevel()
	ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
		if c.Extensions == nil {
			c.Extensions = map[string]json.RawMessage{}
		}
		c.Extensions[protocol.ExtensionSkills] = settings
	})
	s.AddResourceReader(st.readFile)
	ll.Handle(protocol.MethodSkillsList, st)
	ll.Handle(protocol.MethodSkillsGet, st)
	ll.Handle(protocol.MethodResourcesDirectoryRead, st)
}

// publish rebuilds the view after a change; registering held.
func (st *state) publish() {
	v := &view{byURI: maps.Clone(st.skills), files: map[string]*skillFile{}, dirs: map[string]*skill{}}
	v.sorted = slices.SortedFunc(maps.Values(st.skills), func(a, b *skill) int { return strings.Compare(a.entry.URI, b.entry.URI) })
	for _, k := range v.sorted {
		maps.Copy(v.files, k.files)
		for uri := range k.dirs {
			v.dirs[uri] = k
		}
	}
	st.view.Store(v)
}

// readFile serves resources/read for the skills' files.
func (st *state) readFile(uri string) (fastmcp.ResourceContents, bool) {
	f := st.view.Load().files[uri]
	if f == nil {
		return fastmcp.ResourceContents{}, false
	}
	return f.contents(), true
}

// contents is how the file is read: text when it is UTF-8, else a blob.
func (f *skillFile) contents() fastmcp.ResourceContents {
	if utf8.Valid(f.data) {
		return fastmcp.ResourceContents{URI: f.uri, MIMEType: f.mime, Text: string(f.data)}
	}
	return fastmcp.ResourceContents{URI: f.uri, MIMEType: f.mime, Blob: f.data}
}

// Handle serves the extension's methods. A 2026-07-28 result of
// skills/list or skills/get gets the server's cache hints from the
// low-level server, which knows both methods as cacheable.
func (st *state) Handle(ctx context.Context, req *lowlevel.Request) (any, error) {
	switch req.Method {
	case protocol.MethodSkillsList:
		return st.list(req)
	case protocol.MethodSkillsGet:
		return st.get(req)
	default:
		return st.readDirectory(req)
	}
}

// list serves skills/list: the skills, by URI, a page at a time.
func (st *state) list(req *lowlevel.Request) (any, error) {
	var p protocol.ListParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", protocol.ErrInvalidParams, req.Method, err)
	}
	sorted := st.view.Load().sorted
	start := 0
	if p.Cursor != "" {
		after, err := cursor.Decode(p.Cursor)
		if err != nil {
			return nil, err
		}
		start, _ = slices.BinarySearchFunc(sorted, after, func(k *skill, uri string) int { return strings.Compare(k.entry.URI, uri) })
		if start < len(sorted) && sorted[start].entry.URI == after {
			start++
		}
	}
	page := sorted[start:]
	more := len(page) > st.pageSize
	page = page[:min(len(page), st.pageSize)]
	b := append(make([]byte, 0, 256), `{"skills":[`...)
	for i, k := range page {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, k.enc...)
	}
	b = append(b, ']')
	if more && len(page) > 0 {
		b = append(b, `,"nextCursor":"`...)
		b = append(b, cursor.Encode(page[len(page)-1].entry.URI)...)
		b = append(b, '"')
	}
	return json.RawMessage(append(b, '}')), nil
}

// get serves skills/get: the entry of the skill whose SKILL.md URI is
// given; an unknown URI is invalid params.
func (st *state) get(req *lowlevel.Request) (any, error) {
	var p protocol.GetSkillParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: skills/get: %v", protocol.ErrInvalidParams, err)
	}
	k := st.view.Load().byURI[p.URI]
	if k == nil {
		return nil, protocol.NewError(protocol.CodeInvalidParams, "Unknown skill: "+p.URI).WithData(struct {
			URI string `json:"uri"`
		}{p.URI})
	}
	b := make([]byte, 0, len(k.enc)+16)
	b = append(b, `{"skill":`...)
	b = append(b, k.enc...)
	return json.RawMessage(append(b, '}')), nil
}

// directoryParams are the params of resources/directory/read.
type directoryParams struct {
	URI    string `json:"uri"`
	Cursor string `json:"cursor,omitzero"`
}

// readDirectory serves resources/directory/read for skill directories:
// the direct children, a subdirectory with MIME type inode/directory. A
// URI that is not a skill directory is invalid params. Skills are small
// (MaxFiles), so the children come in one page.
func (st *state) readDirectory(req *lowlevel.Request) (any, error) {
	var p directoryParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/directory/read: %v", protocol.ErrInvalidParams, err)
	}
	uri := strings.TrimSuffix(p.URI, "/")
	k := st.view.Load().dirs[uri]
	if k == nil {
		return nil, protocol.NewError(protocol.CodeInvalidParams, "Not a directory: "+p.URI).WithData(struct {
			URI string `json:"uri"`
		}{p.URI})
	}
	children := k.dirs[uri]
	res := &protocol.ListResourcesResult{Resources: make([]*protocol.Resource, 0, len(children))}
	for _, c := range children {
		name, err := url.PathUnescape(path.Base(c))
		if err != nil {
			name = path.Base(c)
		}
		r := &protocol.Resource{URI: c, Name: name, MIMEType: protocol.MIMETypeDirectory}
		if f, ok := k.files[c]; ok {
			size := int64(len(f.data))
			r.MIMEType, r.Size = f.mime, &size
		}
		res.Resources = append(res.Resources, r)
	}
	return res, nil
}
