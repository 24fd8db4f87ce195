package fastmcp

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/uritemplate"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// resourceTemplate is a registered resource template.
type resourceTemplate struct {
	def         *protocol.ResourceTemplate
	enc         jsontext.Value
	tmpl        *uritemplate.Template
	handler     *handlerFunc
	args        *schema.TextBinder
	kind        contentsKind
	mimeType    string
	allowDotDot bool
	completers  map[string]Completer // by variable name
	cache       *cacheHint
	scopes      []string   // RequireScopes
	tags        []string   // Tags
	mount       *mountLink // the mount it comes from (Mount); nil for the server's own
	orig        string     // its URI template on the mounted server
}

func (t *resourceTemplate) key() string             { return t.def.URITemplate }
func (t *resourceTemplate) mountedFrom() *mountLink { return t.mount }
func (t *resourceTemplate) encoded() jsontext.Value { return t.enc }

const (
	resourceExample = "use func(ctx *fastmcp.Context) (R, error), with R a string, []byte, fastmcp.ResourceContents or any JSON value"
	templateExample = "use func(ctx *fastmcp.Context, in Args) (R, error), with Args a struct with one field per template variable"
)

func (r *resourceState) orderedTemplates() []*resourceTemplate {
	if p := r.ordered.Load(); p != nil {
		return *p
	}
	return nil
}

// newResourceTemplate checks a resource template registration.
func (s *Server) newResourceTemplate(raw string, fn any, cfg *resourceConfig) (*resourceTemplate, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("fastmcp: resource template %q: "+format, append([]any{raw}, args...)...)
	}
	tmpl, err := uritemplate.Parse(raw)
	if err != nil {
		return nil, fail("%v", err)
	}
	if cfg.size != nil {
		return nil, fail("ResourceSize describes one resource: give it to static resources only")
	}
	h, err := analyzeHandler(fn, "resource template", raw, templateExample, true)
	if err != nil {
		return nil, err
	}
	if h.in == nil || !isStructish(h.in) {
		return nil, fail("handler %s takes no argument struct to receive the template variables: %s", h.display, templateExample)
	}
	if h.out == nil {
		return nil, fail("handler %s returns only an error: return the contents too: %s", h.display, templateExample)
	}
	st, err := schema.For(h.in, schema.Options{})
	if err != nil {
		return nil, fail("%w", err)
	}
	args := schema.NewTextBinder(st, schema.TextOptions{Lists: true, Join: tmpl.JoinSep})
	if err := checkTemplateFields(tmpl, st, args, h.in); err != nil {
		return nil, fail("%v", err)
	}
	for name, c := range cfg.completers {
		if !tmpl.Has(name) {
			return nil, fail("CompleteArg(%q): the template has no variable %q", name, name)
		}
		if c == nil {
			return nil, fail("CompleteArg(%q): the completer is nil", name)
		}
	}
	name := cfg.name
	if name == "" {
		name = raw
	}
	t := &resourceTemplate{
		tmpl: tmpl, handler: h, args: args, kind: classifyContents(h.out),
		mimeType: cfg.mimeType, allowDotDot: cfg.allowDotDot, completers: cfg.completers, cache: cfg.cache,
		scopes: cfg.scopes,
		tags:   cfg.tags,
	}
	t.def = &protocol.ResourceTemplate{
		URITemplate: raw, Name: name, Title: cfg.title, Description: cfg.description,
		MIMEType: listedMIMEType(cfg.mimeType, t.kind), Annotations: cfg.annotations, Icons: cfg.icons, Meta: cfg.meta,
	}
	if t.enc, err = protocol.Marshal(t.def); err != nil {
		return nil, fail("encoding its definition: %w", err)
	}
	return t, nil
}

// checkTemplateFields checks that the template's variables and the
// argument struct's fields are the same names, and that every field can be
// filled from URI text.
func checkTemplateFields(tmpl *uritemplate.Template, st *schema.Type, args *schema.TextBinder, in reflect.Type) error {
	fields := st.Fields()
	for _, v := range tmpl.Vars() {
		if !slices.ContainsFunc(fields, func(f schema.Field) bool { return f.Name == v.Name }) {
			return fmt.Errorf("variable %q has no field in %s: add a field tagged json:%q", v.Name, in, v.Name)
		}
	}
	for _, f := range fields {
		if !tmpl.Has(f.Name) {
			return fmt.Errorf("field %q of %s is not a template variable: add {%s} to the template or remove the field", f.Name, in, f.Name)
		}
		if !args.Plain(f.Name) {
			return fmt.Errorf("field %q of %s has type %s, which a URI variable cannot fill: use a string, a number, a bool, a type with an UnmarshalText method, or a slice of them", f.Name, in, f.Type)
		}
	}
	return nil
}
