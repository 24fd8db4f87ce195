package uritemplate

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTemplateMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tmpl, uri string
		want      map[string][]string // nil: no match
	}{
		{"users://{id}/profile", "users://42/profile", map[string][]string{"id": {"42"}}},
		{"users://{id}/profile", "users://a%2Fb/profile", map[string][]string{"id": {"a/b"}}},
		{"users://{id}/profile", "users://a/b/profile", nil},
		{"users://{id}/profile", "users://42/profile/x", nil},
		{"users://{id}/profile", "other://42/profile", nil},
		{"users://{id}", "users://", map[string][]string{"id": {""}}},
		{"users://{id}", "users://a,b", map[string][]string{"id": {"a", "b"}}},
		{"users://{id}", "users://a%2Cb", map[string][]string{"id": {"a,b"}}},
		{"notes://{name}", "notes://hello%20world", map[string][]string{"name": {"hello world"}}},
		{"notes://{name}", "notes://caf%C3%A9", map[string][]string{"name": {"café"}}},
		{"notes://{name}", "notes://café", map[string][]string{"name": {"café"}}}, // an IRI
		{"file:///{+path}", "file:///a/b/c.txt", map[string][]string{"path": {"a/b/c.txt"}}},
		{"file://{/path*}", "file:///a/b/c.txt", map[string][]string{"path": {"a", "b", "c.txt"}}},
		{"file://{/path}", "file:///a/b", nil},
		{"search://q{?term,limit}", "search://q?term=go&limit=5", map[string][]string{"term": {"go"}, "limit": {"5"}}},
		{"search://q{?term,limit}", "search://q?limit=5", map[string][]string{"limit": {"5"}}},
		{"search://q{?term,limit}", "search://q", map[string][]string{}},
		{"search://q{?term,limit}", "search://q?limit=5&term=go", nil}, // the order is the template's
		{"code://{lang:2}", "code://go", map[string][]string{"lang": {"go"}}},
		{"x://{a}.{b}", "x://one.two", map[string][]string{"a": {"one"}, "b": {"two"}}},
		{"x://{#frag}", "x://#a/b", map[string][]string{"frag": {"a/b"}}},
		{"x://h{;p}", "x://h;p=1", map[string][]string{"p": {"1"}}},
		{"users://{id}", "users://" + strings.Repeat("a", MaxURI), nil},
	} {
		t.Run(tc.tmpl+" "+tc.uri[:min(len(tc.uri), 40)], func(t *testing.T) {
			t.Parallel()
			tmpl, err := Parse(tc.tmpl)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := tmpl.Match(tc.uri)
			if ok != (tc.want != nil) {
				t.Fatalf("match = %v, %v; want %v", got, ok, tc.want)
			}
			if ok && !maps.EqualFunc(got, tc.want, slices.Equal) {
				t.Fatalf("match = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTemplateParse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ tmpl, err string }{
		{"x://{", "not a valid RFC 6570 URI template"},
		{"x://{a b}", "not a valid RFC 6570 URI template"},
		{"x://{=a}", "not a valid RFC 6570 URI template"},
		{"x://{a}/{a}", `variable "a" appears more than once`},
	} {
		if _, err := Parse(tc.tmpl); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.tmpl, err, tc.err)
		}
	}
	tmpl, err := Parse("x://{a}{/b*}{?c:3,d}")
	if err != nil {
		t.Fatal(err)
	}
	want := []Var{{Name: "a"}, {Name: "b", Op: '/', Explode: true}, {Name: "c", Op: '?'}, {Name: "d", Op: '?'}}
	if !slices.Equal(tmpl.vars, want) {
		t.Fatalf("vars = %+v, want %+v", tmpl.vars, want)
	}
	if got := tmpl.JoinSep("b"); got != "/" {
		t.Fatalf(`JoinSep("b") = %q, want "/"`, got)
	}
}

func TestHasDotDot(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"..": true, "a/../b": true, `a\..\b`: true, "../x": true, "x/..": true,
		"a..b": false, "...": false, "a/./b": false, "": false, "..a/b..": false,
	} {
		if got := hasDotDot(s); got != want {
			t.Errorf("hasDotDot(%q) = %v, want %v", s, got, want)
		}
	}
}

// expandValue percent-encodes s for a template expression: bytes outside
// the unreserved set (and, with reserved, the reserved set) become %XX.
func expandValue(s string, reserved bool) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-._~", c) >= 0:
			b.WriteByte(c)
		case reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0:
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

// roundTrips are templates with a way to expand them from two values, for
// FuzzTemplateMatch.
var roundTrips = []struct {
	tmpl   string
	expand func(a, b string) (uri string, want map[string]string)
}{
	{"users://{id}/profile", func(a, _ string) (string, map[string]string) {
		return "users://" + expandValue(a, false) + "/profile", map[string]string{"id": a}
	}},
	{"file:///{+path}", func(a, _ string) (string, map[string]string) {
		if strings.ContainsAny(a, "%") {
			a = strings.ReplaceAll(a, "%", "") // {+var} passes "%XX" through undecoded
		}
		return "file:///" + expandValue(a, true), map[string]string{"path": a}
	}},
	{"x://{a}/{b}", func(a, b string) (string, map[string]string) {
		return "x://" + expandValue(a, false) + "/" + expandValue(b, false), map[string]string{"a": a, "b": b}
	}},
	{"search://q{?term,limit}", func(a, b string) (string, map[string]string) {
		if a == "" || b == "" {
			return "search://q", map[string]string{}
		}
		return "search://q?term=" + expandValue(a, false) + "&limit=" + expandValue(b, false), map[string]string{"term": a, "limit": b}
	}},
}

// FuzzTemplateMatch checks that matching never panics, that the regular
// expression used as a fast pre-check accepts everything the matcher
// accepts, and that a URI expanded from values matches back to the same
// values.
func FuzzTemplateMatch(f *testing.F) {
	f.Add(uint8(0), "42", "", "users://{id}/profile", "users://42/profile")
	f.Add(uint8(1), "a/b c,d", "", "file:///{+path}", "file:///a/../b")
	f.Add(uint8(2), "é", "%", "x://{a}{/b*}{?c,d}", "x://1/2/3?c=4&d=5")
	f.Add(uint8(3), "go", "5", "x://{a:3}.{b}{#c}", "x://abcd.e#f")
	f.Add(uint8(0), "\xff", "", "x://{;a*}{&b}", "x://;a=1;a=2&b=%ZZ")
	f.Add(uint8(1), "", "", "{0}{1}", " ") // the library's matcher accepts this; the pre-check does not
	f.Fuzz(func(t *testing.T, which uint8, a, b, rawTmpl, uri string) {
		if len(uri) > 512 || len(rawTmpl) > 128 {
			return
		}
		// Any template, any URI.
		if tmpl, err := Parse(rawTmpl); err == nil {
			vals, ok := tmpl.Match(uri)
			// (Registration requires a scheme: without a literal start, the
			// library's matcher wrongly accepts some one-character URIs,
			// which the pre-check rightly rejects.)
			if lib := tmpl.tmpl.Match(uri); lib != nil && hasScheme(rawTmpl) && !tmpl.re.MatchString(uri) {
				t.Fatalf("%q matches %q but the pre-check rejects it", rawTmpl, uri)
			}
			if ok {
				for name := range vals {
					if !tmpl.Has(name) {
						t.Fatalf("%q on %q: unknown variable %q", rawTmpl, uri, name)
					}
				}
			}
		}
		// A URI expanded from values matches back to them.
		rt := roundTrips[int(which)%len(roundTrips)]
		tmpl, err := Parse(rt.tmpl)
		if err != nil {
			t.Fatal(err)
		}
		u, want := rt.expand(a, b)
		if len(u) > MaxURI || !utf8.ValidString(u) {
			return
		}
		got, ok := tmpl.Match(u)
		if !ok {
			t.Fatalf("%s: %q (from %q, %q) does not match", rt.tmpl, u, a, b)
		}
		for name, w := range want {
			if g := strings.Join(got[name], ","); g != w {
				t.Fatalf("%s: %q: %s = %q, want %q", rt.tmpl, u, name, g, w)
			}
		}
	})
}

// hasScheme reports whether s starts with a URI scheme and its colon, as
// fastmcp requires of a resource template at registration.
func hasScheme(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return false
	}
	for j, c := range []byte(s[:i]) {
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}
