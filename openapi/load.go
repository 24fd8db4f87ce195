package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"go.yaml.in/yaml/v4"
)

// ErrUnresolvedRef is matched (errors.Is) by the error of Parse, Read,
// ReadFile and Fetch when the document has references that do not resolve;
// errors.As gives the *RefError naming them.
var ErrUnresolvedRef = errors.New("openapi: unresolved reference")

// A RefError reports the references of a document that do not resolve.
type RefError struct {
	// Refs names every unresolved reference, as written in the document
	// ("#/components/schemas/Missing", "other.yaml#/Pet"), in document order.
	Refs []string
	// Err is the loader's own error, when it gave one.
	Err error
}

// Error lists the unresolved references.
func (e *RefError) Error() string {
	msg := fmt.Sprintf("openapi: %d unresolved reference(s): %s", len(e.Refs), strings.Join(e.Refs, ", "))
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Is makes errors.Is(err, ErrUnresolvedRef) true.
func (e *RefError) Is(target error) bool { return target == ErrUnresolvedRef }

// Unwrap returns the loader's error.
func (e *RefError) Unwrap() error { return e.Err }

// A Document is a parsed, validated OpenAPI 3.0 or 3.1 description with
// every $ref resolved. It is read-only once made and safe to share.
type Document struct {
	t *openapi3.T
	// source is the URL it was fetched from (Fetch), against which a
	// relative servers URL is resolved.
	source *url.URL
}

// Parse parses an OpenAPI 3.0 or 3.1 description in JSON or YAML. External
// references (to other files or URLs) are not followed: they are reported
// as unresolved (use ReadFile or Fetch for documents made of several
// files).
func Parse(data []byte) (*Document, error) {
	return loadWith(context.Background(), data, nil, false, nil)
}

// Read is Parse on what r yields.
func Read(r io.Reader) (*Document, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("openapi: reading the document: %w", err)
	}
	return Parse(data)
}

// ReadFile reads and parses the description in the file path; relative
// external references are resolved from the file's directory. References
// are followed to files only, never to URLs.
func ReadFile(path string) (*Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	loc := &url.URL{Path: filepath.ToSlash(abs)}
	// References are followed to files only: a reference to a URL is not
	// fetched behind the caller's back.
	return loadWith(context.Background(), data, loc, true, openapi3.ReadFromFile)
}

// Fetch gets the description at rawURL once with c (nil: http.DefaultClient)
// and parses it; relative references, and a relative servers URL, are
// resolved against rawURL. External references are fetched with c too, on
// rawURL's own origin only (scheme and host): a document cannot make the
// program fetch from elsewhere.
func Fetch(ctx context.Context, c *http.Client, rawURL string) (*Document, error) {
	if c == nil {
		c = http.DefaultClient
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("openapi: document URL: %w", err)
	}
	data, err := fetchURL(ctx, c, u)
	if err != nil {
		return nil, err
	}
	return loadWith(ctx, data, u, true, func(_ *openapi3.Loader, ref *url.URL) ([]byte, error) {
		if ref.Scheme != u.Scheme || ref.Host != u.Host {
			return nil, fmt.Errorf("openapi: reference %s: only references on the document's own origin (%s://%s) are followed", ref, u.Scheme, u.Host)
		}
		return fetchURL(ctx, c, ref)
	})
}

// maxDocumentBytes bounds a fetched document (GitHub's full description is
// about 12 MB).
const maxDocumentBytes = 64 << 20

func fetchURL(ctx context.Context, c *http.Client, u *url.URL) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("openapi: fetching %s: %w", u, err)
	}
	req.Header.Set("Accept", "application/json, application/yaml;q=0.9, */*;q=0.5")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("openapi: fetching %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("openapi: fetching %s: HTTP %d", u, resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("openapi: fetching %s: %w", u, err)
	}
	if len(data) > maxDocumentBytes {
		return nil, fmt.Errorf("openapi: fetching %s: the document is larger than %d bytes", u, maxDocumentBytes)
	}
	return data, nil
}

// loadWith parses data (found at loc, when known), names the references
// that do not resolve, resolves the others (external ones only when
// external, read with read) and validates the document.
func loadWith(ctx context.Context, data []byte, loc *url.URL, external bool, read openapi3.ReadFromURIFunc) (*Document, error) {
	// A JSON document is read as JSON, here and by kin-openapi (below):
	// YAML parsers read JSON too, but slower. Parse and Register of GitHub's
	// REST description (13 MB, 1223 operations; BenchmarkGitHub) took 4.7 s
	// with both YAML paths and take 3.9 s so; the tools made are byte for
	// byte the same.
	isJSON := json.Valid(data)
	externals, err := checkRefs(data, isJSON, external)
	if err != nil {
		return nil, err
	}
	l := openapi3.NewLoader()
	l.Context = ctx
	l.IsExternalRefsAllowed = external
	l.ReadFromURIFunc = read
	var t *openapi3.T
	if isJSON && len(externals) == 0 {
		// Nothing to read from elsewhere: the location does not matter.
		t = new(openapi3.T)
		if err = t.UnmarshalJSON(data); err == nil {
			err = l.ResolveRefsIn(t, nil)
		}
	} else if loc != nil {
		t, err = l.LoadFromDataWithPath(data, loc)
	} else {
		t, err = l.LoadFromData(data)
	}
	if err != nil {
		if len(externals) > 0 {
			var failed []string
			for _, e := range externals {
				file, _, _ := strings.Cut(e, "#")
				if strings.Contains(err.Error(), file) {
					failed = append(failed, e)
				}
			}
			if len(failed) == 0 {
				failed = externals
			}
			return nil, &RefError{Refs: failed, Err: err}
		}
		return nil, fmt.Errorf("openapi: %w", err)
	}
	opts := []openapi3.ValidationOption{
		openapi3.DisableExamplesValidation(),
		openapi3.DisableSchemaDefaultsValidation(),
		openapi3.DisableSchemaPatternValidation(),
	}
	if err := tolerated(t.Validate(ctx, append(opts, openapi3.EnableMultiError())...)); err != nil {
		return nil, fmt.Errorf("openapi: invalid document: %w", err)
	}
	return &Document{t: t, source: fetchedFrom(loc)}, nil
}

// checkRefs decodes data (as JSON when isJSON, else YAML), checks that it
// is an OpenAPI 3 document whose internal references all resolve and,
// unless external, that it has no other, and returns the external
// references it names.
func checkRefs(data []byte, isJSON, external bool) (externals []string, err error) {
	var raw any
	if isJSON {
		err = json.Unmarshal(data, &raw)
	} else {
		err = yaml.Unmarshal(data, &raw)
	}
	if err != nil {
		return nil, fmt.Errorf("openapi: the document is neither JSON nor YAML: %w", err)
	}
	raw = stringKeys(raw)
	if m, ok := raw.(map[string]any); !ok || m["openapi"] == nil {
		if ok && m["swagger"] != nil {
			return nil, errors.New("openapi: a Swagger 2.0 document: convert it to OpenAPI 3 first")
		}
		return nil, errors.New("openapi: not an OpenAPI 3 document (no \"openapi\" field)")
	}
	var bad []string
	walkRefs(raw, func(ref string) {
		if !strings.HasPrefix(ref, "#") {
			if !slices.Contains(externals, ref) {
				externals = append(externals, ref)
			}
			if !external && !slices.Contains(bad, ref) {
				bad = append(bad, ref)
			}
			return
		}
		if !resolvePointer(raw, ref[1:]) && !slices.Contains(bad, ref) {
			bad = append(bad, ref)
		}
	})
	if len(bad) > 0 {
		return nil, &RefError{Refs: bad}
	}
	return externals, nil
}

// tolerated returns the problems of a document's validation that matter
// here: all of them but paths that differ only in their parameters' names
// ("/orgs/{org}/a/{digest}" and "/orgs/{org}/a/{id}"), which a router could
// not tell apart but which are distinct operations to call. GitHub's REST
// description has such pairs.
func tolerated(err error) error {
	var me openapi3.MultiError
	if !errors.As(err, &me) {
		if _, ok := errors.AsType[*openapi3.ConflictingPathsError](err); ok {
			return nil
		}
		return err
	}
	var left openapi3.MultiError
	for _, e := range me {
		if _, ok := errors.AsType[*openapi3.ConflictingPathsError](e); !ok {
			left = append(left, e)
		}
	}
	if len(left) == 0 {
		return nil
	}
	return left
}

func fetchedFrom(loc *url.URL) *url.URL {
	if loc != nil && (loc.Scheme == "http" || loc.Scheme == "https") {
		return loc
	}
	return nil
}

// stringKeys turns the mappings YAML decoded with other keys than strings
// (responses: {200: ...}) into map[string]any, as JSON would have them.
func stringKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = stringKeys(e)
		}
		return v
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = stringKeys(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = stringKeys(e)
		}
	}
	return v
}

// walkRefs calls fn with every "$ref" string of v, in document order for
// mappings as YAML decoding keeps them (map keys sorted otherwise).
func walkRefs(v any, fn func(string)) {
	switch v := v.(type) {
	case map[string]any:
		if r, ok := v["$ref"].(string); ok {
			fn(r)
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "$ref" {
				continue
			}
			walkRefs(v[k], fn)
		}
	case []any:
		for _, e := range v {
			walkRefs(e, fn)
		}
	}
}

// resolvePointer reports whether the JSON pointer ptr (RFC 6901, as in a
// "#..." fragment, percent-encoded) names a value of doc.
func resolvePointer(doc any, ptr string) bool {
	if p, err := url.PathUnescape(ptr); err == nil {
		ptr = p
	}
	if ptr == "" {
		return true
	}
	if !strings.HasPrefix(ptr, "/") {
		return false // a plain-name fragment ($anchor): not resolved here
	}
	cur := doc
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) {
				return false
			}
			cur = c[i]
		default:
			return false
		}
	}
	return true
}

// Version returns the document's OpenAPI version: "3.0.3", "3.1.0", ...
func (d *Document) Version() string { return d.t.OpenAPI }

// An Operation is one method on one path, as Register sees it.
type Operation struct {
	// ID is the operationId ("" when the document has none).
	ID string
	// Method is "GET", "POST", ... in upper case.
	Method string
	// Path is the path as the document writes it: "/pets/{petId}".
	Path string
	// Summary and Description are the operation's own.
	Summary, Description string
	// Tags are the operation's tags.
	Tags []string
	// Deprecated is the operation's deprecated flag.
	Deprecated bool
}

// key names an operation in Config.Names and errors: its operationId, or
// "METHOD /path".
func (o Operation) key() string {
	if o.ID != "" {
		return o.ID
	}
	return o.Method + " " + o.Path
}

// methodOrder is the order of the Path Item Object's fields.
var methodOrder = []string{"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"}

// operation is an Operation with what Register needs of it.
type operation struct {
	Operation
	item *openapi3.PathItem
	op   *openapi3.Operation
}

func (d *Document) operations() []operation {
	var out []operation
	if d.t.Paths == nil {
		return nil
	}
	paths := d.t.Paths.Map()
	keys := make([]string, 0, len(paths))
	for k := range paths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, p := range keys {
		item := paths[p]
		for _, m := range methodOrder {
			op := item.GetOperation(m)
			if op == nil {
				continue
			}
			out = append(out, operation{
				Operation: Operation{
					ID: op.OperationID, Method: m, Path: p,
					Summary: op.Summary, Description: op.Description,
					Tags: slices.Clone(op.Tags), Deprecated: op.Deprecated,
				},
				item: item, op: op,
			})
		}
	}
	return out
}

// Operations returns every operation of the document, in path then method
// order (the order Register maps them in).
func (d *Document) Operations() []Operation {
	ops := d.operations()
	out := make([]Operation, len(ops))
	for i, o := range ops {
		out[i] = o.Operation
	}
	return out
}
