package apps

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// A View is an HTML document a host renders for a tool: the resource at
// URI. Servers register it with WithView; clients get one from
// ReadView. Change a View before registering it, not after: the
// server keeps a copy.
type View struct {
	// URI is the view's resource URI; it must have the ui:// scheme, as in
	// "ui://weather/dashboard.html".
	URI string
	// HTML is the whole document, scripts and styles inline.
	HTML string
	// Name is the view's name in resources/list. Default: URI.
	Name string
	// Description says what the view shows, in resources/list.
	Description string
	// Meta is the view's _meta.ui: its CSP, permissions and border
	// preference, sent with the listing and with every read.
	Meta ViewMeta
}

// NewView returns the view uri showing the document html.
func NewView(uri, html string) *View {
	return &View{URI: uri, HTML: html}
}

// ViewFromFile returns the view uri showing the HTML file file, with the
// scripts and stylesheets it references by relative path inlined (see
// ViewFromFS). The files are read once, now.
func ViewFromFile(uri, file string) (*View, error) {
	dir, base := filepath.Split(file)
	if dir == "" {
		dir = "."
	}
	return ViewFromFS(uri, os.DirFS(dir), base)
}

// ViewFromFS returns the view uri showing the HTML file name of fsys (an
// embed.FS, for one), read once, now. Every <script src="..."> and <link
// rel="stylesheet" href="..."> whose URL is a relative path is replaced by
// an inline <script> or <style> holding that file of fsys (resolved against
// name's directory), since a host loads the view from a string and has
// nowhere to fetch them from. Absolute URLs are left alone: their origins
// belong in the view's CSP.ResourceDomains. What the attributes meant is
// kept: an inline classic script ignores defer, so the deferred classic
// scripts (inlined or not) move to the end of the body, in their order,
// without it; a stylesheet's media goes on its <style>.
func ViewFromFS(uri string, fsys fs.FS, name string) (*View, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("apps: view %s: %w", uri, err)
	}
	html, err := inline(string(b), fsys, path.Dir(name))
	if err != nil {
		return nil, fmt.Errorf("apps: view %s from %s: %w", uri, name, err)
	}
	return &View{URI: uri, HTML: html}, nil
}

// Must returns v, or panics with err: for views built in a package-level
// var from an embed.FS, which cannot fail once the program builds.
func Must(v *View, err error) *View {
	if err != nil {
		panic(err)
	}
	return v
}

// ErrInvalidView is matched (errors.Is) by the error Validate returns.
var ErrInvalidView = errors.New("apps: invalid view")

// Validate reports what makes v unusable: a URI without the ui:// scheme, or
// no HTML.
func (v *View) Validate() error {
	if v == nil {
		return fmt.Errorf("%w: the view is nil: build it with apps.NewView, apps.ViewFromFile or apps.ViewFromFS", ErrInvalidView)
	}
	u, err := url.Parse(v.URI)
	if err != nil || u.Scheme != Scheme || len(v.URI) <= len(Scheme+"://") || !strings.HasPrefix(v.URI, Scheme+"://") {
		return fmt.Errorf("%w: URI %q: a view's URI must have the ui:// scheme, as in ui://myserver/view.html", ErrInvalidView, v.URI)
	}
	if strings.TrimSpace(v.HTML) == "" {
		return fmt.Errorf("%w: %s has no HTML", ErrInvalidView, v.URI)
	}
	return nil
}

// htmlPatterns are the patterns ViewFromFile and ViewFromFS inline with.
type htmlPatterns struct {
	scriptSrc, styleLink, relIsStyle, linkHref, closeTag, attribute, bodyEnd *regexp.Regexp
}

// patterns compiles them on first use, not at package init: every server
// that links this package would pay for them at start-up.
var patterns = sync.OnceValue(func() *htmlPatterns {
	return &htmlPatterns{
		scriptSrc:  regexp.MustCompile(`(?is)<script\b([^>]*?)\bsrc\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)([^>]*)>\s*</script\s*>`),
		styleLink:  regexp.MustCompile(`(?is)<link\b[^>]*>`),
		relIsStyle: regexp.MustCompile(`(?is)\brel\s*=\s*("stylesheet"|'stylesheet'|stylesheet\b)`),
		linkHref:   regexp.MustCompile(`(?is)\bhref\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)`),
		closeTag:   regexp.MustCompile(`(?i)</(script|style)`),
		attribute:  regexp.MustCompile(`(?s)([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?`),
		bodyEnd:    regexp.MustCompile(`(?i)</body\s*>`),
	}
})

// attr is one attribute of a tag: its name (lower case) and its text as
// written.
type attr struct{ name, text string }

// attrs splits the attributes of a tag (the text between its name and its
// end).
func attrs(s string) []attr {
	var out []attr
	for _, m := range patterns().attribute.FindAllStringSubmatch(s, -1) {
		out = append(out, attr{strings.ToLower(m[1]), m[0]})
	}
	return out
}

// attrValue returns the value of the attribute name, unquoted, and whether
// it is there.
func attrValue(as []attr, name string) (string, bool) {
	for _, a := range as {
		if a.name == name {
			_, v, _ := strings.Cut(a.text, "=")
			return strings.Trim(strings.TrimSpace(v), `"'`), true
		}
	}
	return "", false
}

// deferredClassic reports whether a script with the attributes as is a
// classic script with defer: run after the document is parsed, in order.
// A module script is deferred whatever its attributes, inline or not.
func deferredClassic(as []attr) bool {
	_, deferred := attrValue(as, "defer")
	typ, _ := attrValue(as, "type")
	return deferred && !strings.EqualFold(strings.TrimSpace(typ), "module")
}

// scriptTag writes the start tag of a script with the attributes as but
// defer, and body.
func scriptTag(as []attr, body string) string {
	var b strings.Builder
	b.WriteString("<script")
	for _, a := range as {
		if a.name != "defer" {
			b.WriteString(" " + a.text)
		}
	}
	b.WriteString(">" + body + "</script>")
	return b.String()
}

// inline replaces the relative scripts and stylesheets of html with their
// contents from fsys, dir being the directory of the page.
func inline(html string, fsys fs.FS, dir string) (string, error) {
	var firstErr error
	read := func(ref string) (string, bool) {
		ref = strings.Trim(ref, `"'`)
		u, err := url.Parse(ref)
		if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(ref, "/") || u.Path == "" {
			return "", false // absolute, protocol-relative or data: - left alone
		}
		b, err := fs.ReadFile(fsys, path.Join(dir, u.Path))
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("inlining %s: %w", ref, err)
		}
		// Text ending an inline element early would break the page.
		return patterns().closeTag.ReplaceAllString(string(b), `<\/$1`), err == nil
	}
	// An inline classic script ignores defer: the deferred ones move to
	// the end of the body, in their order, so that they still run after
	// the document is parsed and in the order written. The deferred ones
	// left external move with them (without defer, so that the order
	// holds between the two kinds).
	var deferred []string
	html = patterns().scriptSrc.ReplaceAllStringFunc(html, func(tag string) string {
		m := patterns().scriptSrc.FindStringSubmatch(tag)
		body, ok := read(m[2])
		as := attrs(m[1] + " " + m[3])
		if deferredClassic(as) {
			if !ok {
				as = append(as, attr{"src", "src=" + m[2]})
			}
			deferred = append(deferred, scriptTag(as, body))
			return ""
		}
		if !ok {
			return tag
		}
		return "<script" + strings.TrimRight(m[1], " \t\n") + m[3] + ">" + body + "</script>"
	})
	if len(deferred) > 0 {
		moved := strings.Join(deferred, "\n") + "\n"
		if loc := patterns().bodyEnd.FindAllStringIndex(html, -1); loc != nil {
			at := loc[len(loc)-1][0]
			html = html[:at] + moved + html[at:]
		} else {
			html += moved
		}
	}
	html = patterns().styleLink.ReplaceAllStringFunc(html, func(tag string) string {
		href := patterns().linkHref.FindStringSubmatch(tag)
		if !patterns().relIsStyle.MatchString(tag) || href == nil {
			return tag
		}
		body, ok := read(href[1])
		if !ok {
			return tag
		}
		// A stylesheet for some media only (print, say) stays so.
		for _, a := range attrs(strings.TrimSuffix(tag[len("<link"):], ">")) {
			if a.name == "media" {
				return "<style " + a.text + ">" + body + "</style>"
			}
		}
		return "<style>" + body + "</style>"
	})
	return html, firstErr
}
