package preview

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// maxBody bounds the JSON a page request may carry.
const maxBody = 4 << 20

// toolEntry is one tool as the page lists it.
type toolEntry struct {
	Name        string            `json:"name"`
	Title       string            `json:"title,omitempty"`
	Description string            `json:"description,omitempty"`
	ResourceURI string            `json:"resourceUri,omitempty"`
	Visibility  []apps.Visibility `json:"visibility,omitempty"`
	AppOnly     bool              `json:"appOnly,omitempty"`
	Fields      []field           `json:"fields"`
	FormError   string            `json:"formError,omitempty"`
	Tool        json.RawMessage   `json:"tool"`
}

// writeJSON writes v with status 200.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes {"error": {"message": msg}} with status.
func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": "preview: " + msg}})
}

// writeCallError answers a request the server failed: a JSON-RPC error the
// server sent keeps its code and message; a failure to reach the server
// (transport, timeout, closed client) becomes status 502 so that it is
// never shown as the server's answer.
func writeCallError(w http.ResponseWriter, err error) {
	if pe, ok := errors.AsType[*protocol.Error](err); ok {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"error": pe})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadGateway)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"code":    protocol.CodeInternalError,
		"message": "preview: the server could not be reached: " + err.Error(),
	}})
}

func readJSON(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "request body: "+err.Error())
		return false
	}
	return true
}

// decodeJSONString decodes s into v, leaving v alone when s is not JSON of
// the right shape.
func decodeJSONString(s string, v any) { _ = json.Unmarshal([]byte(s), v) }

// toolMeta is the tool's _meta.ui. Malformed metadata counts as none: the
// tool is listed without a view, callable by the model and by views.
func toolMeta(t *protocol.Tool) apps.ToolMeta {
	m, _, _ := apps.ToolMetaOf(t)
	return m
}

// tools lists every tool of the server.
func (p *Preview) tools(ctx context.Context) ([]*protocol.Tool, error) {
	var out []*protocol.Tool
	for t, err := range p.client.Tools(ctx) {
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// tool finds one tool by name.
func (p *Preview) tool(ctx context.Context, name string) (*protocol.Tool, error) {
	tools, err := p.tools(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range tools {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, nil
}

// apiTools answers the tool list: every tool, with its view, visibility
// and form fields.
func (p *Preview) apiTools(w http.ResponseWriter, r *http.Request) {
	tools, err := p.tools(r.Context())
	if err != nil {
		writeCallError(w, err)
		return
	}
	entries := []toolEntry{}
	for _, t := range tools {
		ui := toolMeta(t)
		raw, err := protocol.Marshal(t)
		if err != nil {
			writeError(w, http.StatusInternalServerError, fmt.Sprintf("encoding tool %s: %v", t.Name, err))
			return
		}
		e := toolEntry{
			Name:        t.Name,
			Title:       t.Title,
			Description: t.Description,
			ResourceURI: ui.ResourceURI,
			Visibility:  ui.Visibility,
			AppOnly:     !ui.VisibleTo(apps.VisibilityModel),
			Tool:        raw,
		}
		if e.Fields, err = formFields(t.InputSchema); err != nil {
			e.FormError = err.Error()
		}
		if e.Fields == nil {
			e.Fields = []field{}
		}
		entries = append(entries, e)
	}
	var server any
	if si := p.client.ServerInfo(); si != nil {
		server = si
	}
	writeJSON(w, map[string]any{"server": server, "tools": entries})
}

// formTool finds the tool a form request names and builds its
// arguments from the form's texts. It writes the error answer itself and
// returns ok false on failure. App-only tools are refused: the form calls
// tools as the model would.
func (p *Preview) formTool(w http.ResponseWriter, r *http.Request, name string, values map[string]string) (args map[string]json.RawMessage, ok bool) {
	t, err := p.tool(r.Context(), name)
	if err != nil {
		writeCallError(w, err)
		return nil, false
	}
	if t == nil {
		writeError(w, http.StatusNotFound, fmt.Sprintf("the server has no tool %q", name))
		return nil, false
	}
	if !toolMeta(t).VisibleTo(apps.VisibilityModel) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("tool %q is app-only: only its view may call it", name))
		return nil, false
	}
	fields, err := formFields(t.InputSchema)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return nil, false
	}
	args, err = formArguments(fields, values)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return nil, false
	}
	return args, true
}

// formRequest is the body of /api/arguments and /api/call: the tool's
// name and the texts typed into its form.
type formRequest struct {
	Name   string            `json:"name"`
	Values map[string]string `json:"values"`
}

// apiArguments turns a form into the tool's arguments without calling it,
// so that the page can send them to the view (tool-input) before the
// result: {"name", "values"} → {"arguments"}.
func (p *Preview) apiArguments(w http.ResponseWriter, r *http.Request) {
	var req formRequest
	if !readJSON(w, r, &req) {
		return
	}
	if args, ok := p.formTool(w, r, req.Name, req.Values); ok {
		writeJSON(w, map[string]any{"arguments": args})
	}
}

// apiCall calls a tool from the form: {"name", "values"} →
// {"arguments", "result"}.
func (p *Preview) apiCall(w http.ResponseWriter, r *http.Request) {
	var req formRequest
	if !readJSON(w, r, &req) {
		return
	}
	args, ok := p.formTool(w, r, req.Name, req.Values)
	if !ok {
		return
	}
	p.logger.Info("preview: tools/call from the form", "tool", req.Name)
	res, err := p.client.CallTool(r.Context(), req.Name, args)
	if err != nil {
		writeCallError(w, err)
		return
	}
	out, err := protocol.Marshal(res)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encoding the result: "+err.Error())
		return
	}
	writeJSON(w, map[string]any{"arguments": args, "result": json.RawMessage(out)})
}

// viewAnswer is what the page needs to render a view.
type viewAnswer struct {
	URI  string `json:"uri"`
	HTML string `json:"html"`
	apps.ViewMeta
	SandboxURL string `json:"sandboxUrl"`
}

// errNotView is matched by the error of readView for a resource that is
// not an MCP Apps view.
var errNotView = errors.New("not an MCP Apps view")

// readView reads a view through the client. Its _meta.ui comes from the
// content item, else from the resources/list entry.
func (p *Preview) readView(ctx context.Context, uri string) (*viewAnswer, error) {
	if !strings.HasPrefix(uri, apps.Scheme+"://") {
		return nil, fmt.Errorf("%w: %q is not a ui:// URI", errNotView, uri)
	}
	res, err := p.client.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	var item *protocol.ResourceContents
	for i := range res.Contents {
		c := &res.Contents[i]
		if c.URI == uri || item == nil {
			item = c
		}
	}
	if item == nil {
		return nil, fmt.Errorf("%w: %s has no contents", errNotView, uri)
	}
	if !apps.IsViewMIMEType(item.MIMEType) {
		return nil, fmt.Errorf("%w: %s has MIME type %q, want %s", errNotView, uri, item.MIMEType, apps.MIMEType)
	}
	html := item.Text
	if item.Blob != nil {
		html = string(item.Blob)
	}
	meta := item.Meta
	if _, ok := meta[apps.MetaKey]; !ok {
		for r, err := range p.client.Resources(ctx) {
			if err != nil {
				break
			}
			if r.URI == uri {
				meta = r.Meta
				break
			}
		}
	}
	ui, err := apps.ViewMetaOf(meta)
	if err != nil {
		p.logger.Warn("preview: ignoring the view's malformed _meta.ui", "uri", uri, "error", err)
	}
	return &viewAnswer{URI: uri, HTML: html, ViewMeta: ui, SandboxURL: p.sandbox()}, nil
}

// apiView reads a view: {"uri"} → viewAnswer.
func (p *Preview) apiView(w http.ResponseWriter, r *http.Request) {
	var req struct {
		URI string `json:"uri"`
	}
	if !readJSON(w, r, &req) {
		return
	}
	v, err := p.readView(r.Context(), req.URI)
	if errors.Is(err, errNotView) {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if err != nil {
		writeCallError(w, err)
		return
	}
	writeJSON(w, v)
}

// apiViewCall proxies a view's tools/call: the params of the view's
// request in, {"result"} or {"error"} out. A tool whose visibility leaves
// out "app" is refused, as the specification asks of hosts.
func (p *Preview) apiViewCall(w http.ResponseWriter, r *http.Request) {
	var params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      protocol.Meta   `json:"_meta"`
	}
	if !readJSON(w, r, &params) {
		return
	}
	t, err := p.tool(r.Context(), params.Name)
	if err != nil {
		writeCallError(w, err)
		return
	}
	if t == nil {
		writeJSON(w, map[string]any{"error": protocol.Errorf(protocol.CodeInvalidParams, "Unknown tool: %s", params.Name)})
		return
	}
	if !toolMeta(t).VisibleTo(apps.VisibilityApp) {
		writeJSON(w, map[string]any{"error": protocol.Errorf(protocol.CodeInvalidParams, "tool %s is not visible to apps (its _meta.ui.visibility leaves out \"app\")", params.Name)})
		return
	}
	var args any
	if len(params.Arguments) > 0 && string(params.Arguments) != "null" {
		args = params.Arguments
	}
	p.logger.Info("preview: tools/call from the view", "tool", params.Name)
	// The preview does not relay progress to the view: a progressToken
	// of the view's would name notifications nobody waits for.
	delete(params.Meta, "progressToken")
	var opts []client.CallOption
	if len(params.Meta) > 0 {
		opts = append(opts, client.WithMeta(params.Meta))
	}
	res, err := p.client.CallTool(r.Context(), params.Name, args, opts...)
	if err != nil {
		writeCallError(w, err)
		return
	}
	writeResult(w, res, "the result")
}

// apiViewTools proxies a view's tools/list: the tools the view may call.
func (p *Preview) apiViewTools(w http.ResponseWriter, r *http.Request) {
	var params struct{}
	if !readJSON(w, r, &params) {
		return
	}
	tools, err := p.tools(r.Context())
	if err != nil {
		writeCallError(w, err)
		return
	}
	visible := []*protocol.Tool{}
	for _, t := range tools {
		if toolMeta(t).VisibleTo(apps.VisibilityApp) {
			visible = append(visible, t)
		}
	}
	writeResult(w, &protocol.ListToolsResult{Tools: visible}, "the tools")
}

// apiViewRead proxies a view's resources/read.
func (p *Preview) apiViewRead(w http.ResponseWriter, r *http.Request) {
	var params struct {
		URI string `json:"uri"`
	}
	if !readJSON(w, r, &params) {
		return
	}
	p.logger.Info("preview: resources/read from the view", "uri", params.URI)
	res, err := p.client.ReadResource(r.Context(), params.URI)
	if err != nil {
		writeCallError(w, err)
		return
	}
	writeResult(w, res, "the result")
}

// writeResult answers a view's request with the server's result v, as
// protocol-encoded JSON under "result"; what names v in an encoding error.
func writeResult(w http.ResponseWriter, v any, what string) {
	out, err := protocol.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encoding "+what+": "+err.Error())
		return
	}
	writeJSON(w, map[string]any{"result": json.RawMessage(out)})
}
