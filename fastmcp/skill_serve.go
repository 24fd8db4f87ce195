package fastmcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/lowlevel"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// skillState holds the registered skills, by SKILL.md URI, and an index
// of their files and directories by URI for resources/read and
// resources/directory/read.
type skillState struct {
	registry[*skill]
	installed bool // the handlers are in the low-level table; s.mu guards it
	index     atomic.Pointer[skillIndex]
}

// skillIndex maps every URI of the registered skills to its skill; a file
// or directory of a nested skill maps to either skill, which serve the
// same bytes.
type skillIndex struct {
	files map[string]*skillFile
	dirs  map[string]*skill
}

// reindex rebuilds the index after an update; s.mu held.
func (st *skillState) reindex() {
	ix := &skillIndex{files: map[string]*skillFile{}, dirs: map[string]*skill{}}
	for _, k := range st.load().sorted {
		for uri, f := range k.files {
			ix.files[uri] = f
		}
		for uri := range k.dirs {
			ix.dirs[uri] = k
		}
	}
	st.index.Store(ix)
}

// installSkillHandlers adds skills/list, skills/get and
// resources/directory/read and declares the extension, once; s.mu held.
func (s *Server) installSkillHandlers() {
	if s.skills.installed {
		return
	}
	s.skills.installed = true
	settings, _ := json.Marshal(protocol.SkillsCapability{DirectoryRead: true})
	s.ll.UpdateCapabilities(func(c *protocol.ServerCapabilities) {
		if c.Extensions == nil {
			c.Extensions = map[string]json.RawMessage{}
		}
		c.Extensions[protocol.ExtensionSkills] = settings
	})
	s.ll.Handle(protocol.MethodSkillsList, lowlevel.HandlerFunc(s.listSkills))
	s.ll.Handle(protocol.MethodSkillsGet, lowlevel.HandlerFunc(s.getSkill))
	s.ll.Handle(protocol.MethodResourcesDirectoryRead, lowlevel.HandlerFunc(s.readDirectory))
}

// skillManifestResource is the resources/list entry of a skill's
// SKILL.md: named and described by its frontmatter.
func skillManifestResource(k *skill) (*resource, error) {
	f := k.files[k.entry.URI]
	desc, _ := k.entry.Frontmatter["description"].(string)
	size := int64(len(f.data))
	cfg := &resourceConfig{name: k.name, mimeType: f.mime, size: &size}
	cfg.description = desc
	return newResource(k.entry.URI, func() ResourceContents { return f.contents() }, cfg)
}

// contents is how the file is read: text when it is UTF-8, else a blob.
func (f *skillFile) contents() ResourceContents {
	if utf8.Valid(f.data) {
		return ResourceContents{URI: f.uri, MIMEType: f.mime, Text: string(f.data)}
	}
	return ResourceContents{URI: f.uri, MIMEType: f.mime, Blob: f.data}
}

// skillFileAt returns the skill file with URI uri, if any.
func (s *Server) skillFileAt(uri string) *skillFile {
	ix := s.skills.index.Load()
	if ix == nil {
		return nil
	}
	return ix.files[uri]
}

// cacheAttrs is the ttlMs and cacheScope members a modern skills result
// carries: the server's CacheHint, else 0 and private.
func (s *Server) cacheAttrs() string {
	scope := cacheScope(s.cfg.cache)
	if scope == "" {
		scope = protocol.CacheScopePrivate
	}
	return `"ttlMs":` + strconv.FormatInt(max(cacheTTL(s.cfg.cache).Milliseconds(), 0), 10) + `,"cacheScope":"` + string(scope) + `"`
}

// listSkills serves skills/list: the skills, by URI, a page at a time.
func (s *Server) listSkills(ctx context.Context, req *lowlevel.Request) (any, error) {
	cursor, err := listCursor(req)
	if err != nil {
		return nil, err
	}
	items, more, err := s.skills.load().slice(cursor, s.cfg.pageSize, nil)
	if err != nil {
		return nil, err
	}
	extra := ""
	if req.Modern {
		extra = s.cacheAttrs()
	}
	return encodePage("skills", items, more, extra, nil), nil
}

// getSkill serves skills/get: the entry of the skill whose SKILL.md URI
// is given; an unknown URI is invalid params.
func (s *Server) getSkill(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p protocol.GetSkillParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: skills/get: %v", protocol.ErrInvalidParams, err)
	}
	k, ok := s.skills.get(p.URI)
	if !ok {
		return nil, protocol.NewError(protocol.CodeInvalidParams, "Unknown skill: "+p.URI).WithData(struct {
			URI string `json:"uri"`
		}{p.URI})
	}
	b := make([]byte, 0, len(k.enc)+64)
	b = append(b, `{"skill":`...)
	b = append(b, k.enc...)
	if req.Modern {
		b = append(b, ',')
		b = append(b, s.cacheAttrs()...)
	}
	b = append(b, '}')
	return json.RawMessage(b), nil
}

// directoryParams are the params of resources/directory/read.
type directoryParams struct {
	URI    string `json:"uri"`
	Cursor string `json:"cursor"`
}

// readDirectory serves resources/directory/read for skill directories:
// the direct children, a subdirectory with MIME type inode/directory. A
// URI that is not a skill directory is invalid params. Skills are small
// (MaxSkillFiles), so the children come in one page.
func (s *Server) readDirectory(ctx context.Context, req *lowlevel.Request) (any, error) {
	var p directoryParams
	if err := protocol.Unmarshal(jsonobj.OrEmpty(req.Params), &p); err != nil {
		return nil, fmt.Errorf("%w: resources/directory/read: %v", protocol.ErrInvalidParams, err)
	}
	uri := strings.TrimSuffix(p.URI, "/")
	if ix := s.skills.index.Load(); ix != nil && ix.dirs[uri] != nil {
		k := ix.dirs[uri]
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
	return nil, protocol.NewError(protocol.CodeInvalidParams, "Not a directory: "+p.URI).WithData(struct {
		URI string `json:"uri"`
	}{p.URI})
}
