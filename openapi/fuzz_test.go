package openapi

import (
	"net/url"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// FuzzPathTemplate: any value of a path parameter expands into text that
// adds no '/', '?' or '#' and that url.PathUnescape turns back into the
// value; the request's URL has the value as exactly one path segment.
func FuzzPathTemplate(f *testing.F) {
	for _, s := range []string{"", "a", "a/b", "..", ".", "a?b#c", "%2F", "ü €", "a;b=c,d", "\x00\xff"} {
		f.Add(s)
	}
	p := &openapi3.Parameter{Name: "id", In: inPath, Required: true, Schema: openapi3.NewStringSchema().NewRef()}
	m := &mapping{operation: operation{Operation: Operation{Method: "GET", Path: "/items/{id}/x"}}, args: []argument{{name: "id", in: inPath, orig: "id", param: p}}}
	f.Fuzz(func(t *testing.T, v string) {
		out := expandPath(m.args[0], v)
		if strings.ContainsAny(out, "/?#") {
			t.Fatalf("%q expands to %q", v, out)
		}
		back, err := url.PathUnescape(out)
		if err != nil || back != v {
			t.Fatalf("%q expands to %q, which unescapes to %q (%v)", v, out, back, err)
		}
		req, err := m.newRequest("http://api.test/base", map[string]any{"id": v})
		if err != nil {
			t.Fatal(err)
		}
		if req.URL.Path != "/base/items/"+v+"/x" || req.URL.RawQuery != "" || req.URL.Fragment != "" {
			t.Fatalf("%q: URL %q (path %q)", v, req.URL, req.URL.Path)
		}
		if seg := strings.Split(req.URL.EscapedPath(), "/"); len(seg) != 5 || seg[3] == "." || seg[3] == ".." {
			t.Fatalf("%q: escaped path %q", v, req.URL.EscapedPath())
		}
	})
}
