package client

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/headername"
	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/internal/paramheader"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// ErrInvalidToolHeaders is returned by CallTool for a tool whose definition
// the client rejected because its x-mcp-header annotations break the rules
// of the Streamable HTTP transport (2026-07-28, "Custom Headers from Tool
// Parameters"). Such tools are left out of ListTools and Tools, and are
// never called.
var ErrInvalidToolHeaders error = &sentinel{"client: the tool's x-mcp-header annotations are invalid"}

// paramHeader is one tool parameter mirrored into an Mcp-Param-* header.
type paramHeader struct {
	name string   // the x-mcp-header value
	path []string // property names from the arguments object to the parameter
}

// toolCache keeps what the client learnt from tools/list that tools/call
// needs on 2026-07-28 over HTTP: the Mcp-Param-* headers of every valid
// tool, and why invalid tools were dropped.
//
// The cache is kept until the server says the tool list changed or answers
// a call with HeaderMismatch; it does not expire with the listing's ttlMs,
// because a stale entry costs at most one refused call, which the retry in
// CallTool repairs, while refreshing every time a listing is stale (ttlMs 0
// or absent) would double the requests.
type toolCache struct {
	mu      sync.Mutex
	loaded  bool // a listing has been read to its last page since the cache was last invalidated
	headers map[string][]paramHeader
	invalid map[string]error
}

// page records one page of tools/list (the first page when first is set)
// and returns the page with the invalid tools removed. Each dropped tool is
// logged as a warning.
func (c *Client) recordTools(res *protocol.ListToolsResult, first bool) {
	tc := &c.toolDefs
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if first || tc.headers == nil {
		tc.headers, tc.invalid = map[string][]paramHeader{}, map[string]error{}
	}
	kept := res.Tools[:0:0]
	for _, t := range res.Tools {
		if t == nil {
			continue
		}
		hs, err := toolParamHeaders(t.InputSchema)
		if err != nil {
			c.cfg.logger.Warn("client: ignoring a tool whose x-mcp-header annotations are invalid", "tool", t.Name, "reason", err.Error())
			tc.invalid[t.Name] = err
			delete(tc.headers, t.Name)
			continue
		}
		delete(tc.invalid, t.Name)
		tc.headers[t.Name] = hs
		kept = append(kept, t)
	}
	res.Tools = kept
	if res.NextCursor == "" {
		tc.loaded = true
	}
}

// invalidateTools marks the cached tool definitions stale: the next
// CallTool lists the tools again first.
func (c *Client) invalidateTools() {
	c.toolDefs.mu.Lock()
	c.toolDefs.loaded = false
	c.toolDefs.mu.Unlock()
}

// toolHeaders returns the header parameters of tool name, listing the tools
// first when the cache is stale. A tool the server did not list gets none.
func (c *Client) toolHeaders(ctx context.Context, name string) ([]paramHeader, error) {
	c.toolDefs.mu.Lock()
	loaded := c.toolDefs.loaded
	c.toolDefs.mu.Unlock()
	if !loaded {
		for _, err := range c.Tools(ctx) {
			if err != nil {
				// Without the definitions there is nothing to mirror; the
				// server refuses the call if it needed headers.
				c.cfg.logger.Debug("client: listing tools before calling one failed", "tool", name, "error", err)
				break
			}
		}
	}
	c.toolDefs.mu.Lock()
	defer c.toolDefs.mu.Unlock()
	if err, bad := c.toolDefs.invalid[name]; bad {
		return nil, fmt.Errorf("%w: tool %q: %v", ErrInvalidToolHeaders, name, err)
	}
	return c.toolDefs.headers[name], nil
}

// paramHeaderValues builds the Mcp-Param-* headers of a call from its
// arguments: a string as it is, an integer as written, a boolean as true or
// false, each encoded with transport.EncodeHeaderValue. A parameter that
// is absent or null gets no header.
func paramHeaderValues(hs []paramHeader, args []byte) (http.Header, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	h := http.Header{}
	for _, ph := range hs {
		v, ok := paramheader.ValueAt(args, ph.path)
		if !ok {
			continue
		}
		var text string
		switch v.Kind() {
		case '"':
			if err := protocol.Unmarshal(v, &text); err != nil {
				return nil, err
			}
		case '0', 't', 'f':
			text = string(v)
		default:
			return nil, fmt.Errorf("client: argument %s is mirrored in header %s%s, so it must be a string, integer or boolean, not %s",
				paramheader.PathString(ph.path), paramheader.Prefix, ph.name, v)
		}
		h[http.CanonicalHeaderKey(paramheader.Prefix+ph.name)] = []string{transport.EncodeHeaderValue(text)}
	}
	return h, nil
}

// Keywords whose values are subschemas. A property is statically reachable
// (may carry x-mcp-header) only through "properties".
var (
	schemaMapKeywords   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"}
	schemaListKeywords  = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"} // items: a list before draft 2020-12
	schemaValueKeywords = []string{
		"items", "additionalItems", "additionalProperties", "propertyNames", "not",
		"if", "then", "else", "contains", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
	}
)

// toolParamHeaders finds the x-mcp-header annotations of an input schema
// and checks them (2026-07-28, "Custom Headers from Tool Parameters"): each
// is a non-empty HTTP token, unique ignoring case, on a property of type
// string, integer or boolean that is reachable from the root through
// "properties" alone. The schema is only read: no "$ref" is followed.
//
// The schema package checks the same rules for the schemas of a server's
// own tools, but only as part of compiling them (schema.FromJSON), which
// refuses schemas a client must still accept, such as ones with network
// "$ref"s; hence this walk over the raw JSON.
func toolParamHeaders(schema []byte) ([]paramHeader, error) {
	if len(schema) == 0 {
		return nil, nil
	}
	var out []paramHeader
	seen := map[string]string{}
	var walk func(v jsontext.Value, static bool, chain []string, where string) error
	walk = func(v jsontext.Value, static bool, chain []string, where string) error {
		if v.Kind() != '{' {
			return nil
		}
		s, err := jsonobj.Parse(v)
		if err != nil {
			return fmt.Errorf("schema at %s: %v", where, err)
		}
		if hv, ok := s.Get("x-mcp-header"); ok {
			var name string
			if err := protocol.Unmarshal(hv, &name); err != nil {
				return fmt.Errorf("x-mcp-header at %s is not a string", where)
			}
			if !static || len(chain) == 0 {
				return fmt.Errorf("x-mcp-header %q at %s is not reachable from the root through \"properties\" alone", name, where)
			}
			if err := headername.Check(name); err != nil {
				return fmt.Errorf("x-mcp-header %q at %s %v", name, where, err)
			}
			var typ string
			t, _ := s.Get("type")
			_ = protocol.Unmarshal(t, &typ)
			switch typ {
			case "string", "integer", "boolean":
			default:
				return fmt.Errorf("x-mcp-header %q at %s is on a property of type %s; only string, integer and boolean may be mirrored", name, where, orDefault(string(t), "(none)"))
			}
			key := strings.ToLower(name)
			if other, dup := seen[key]; dup {
				return fmt.Errorf("x-mcp-header %q at %s repeats %q (header names are compared ignoring case)", name, where, other)
			}
			seen[key] = name
			out = append(out, paramHeader{name: name, path: append([]string(nil), chain...)})
		}
		for _, m := range s {
			kw, sub := m.Name, m.Value
			switch {
			case slices.Contains(schemaMapKeywords, kw) && sub.Kind() == '{':
				members, err := jsonobj.Parse(sub)
				if err != nil {
					return fmt.Errorf("schema at %s/%s: %v", where, kw, err)
				}
				for _, p := range members {
					if err := walk(p.Value, static && kw == "properties", append(chain[:len(chain):len(chain)], p.Name), where+"/"+kw+"/"+p.Name); err != nil {
						return err
					}
				}
			case slices.Contains(schemaListKeywords, kw) && sub.Kind() == '[':
				var list []jsontext.Value
				if err := protocol.Unmarshal(sub, &list); err != nil {
					return fmt.Errorf("schema at %s/%s: %v", where, kw, err)
				}
				for i, e := range list {
					if err := walk(e, false, chain, fmt.Sprintf("%s/%s/%d", where, kw, i)); err != nil {
						return err
					}
				}
			case slices.Contains(schemaValueKeywords, kw):
				if err := walk(sub, false, chain, where+"/"+kw); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(schema, true, nil, "#"); err != nil {
		return nil, err
	}
	return out, nil
}
