package apps_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fastmcp-go/fastmcp/apps"
)

func TestViewFromFSInlines(t *testing.T) {
	fsys := fstest.MapFS{
		"web/index.html": {Data: []byte(`<!doctype html><html><head>
<link rel="stylesheet" href="style.css">
<link rel="icon" href="favicon.ico">
<link rel="stylesheet" href="https://cdn.example.com/x.css">
<script type="module" src="./js/app.js"></script>
<script src="https://cdn.example.com/lib.js"></script>
</head><body><script>var inline = 1</script></body></html>`)},
		"web/style.css": {Data: []byte(`body { color: red }`)},
		"web/js/app.js": {Data: []byte(`document.body.innerHTML = "</script><b>x</b>";`)},
	}
	v, err := apps.ViewFromFS("ui://t/view.html", fsys, "web/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<style>body { color: red }</style>`,
		`<script type="module">document.body.innerHTML = "<\/script><b>x</b>";</script>`,
		`<link rel="icon" href="favicon.ico">`,                         // not a stylesheet: kept
		`<link rel="stylesheet" href="https://cdn.example.com/x.css">`, // absolute: kept
		`<script src="https://cdn.example.com/lib.js"></script>`,       // absolute: kept
		`<script>var inline = 1</script>`,
	} {
		if !strings.Contains(v.HTML, want) {
			t.Errorf("HTML lacks %s:\n%s", want, v.HTML)
		}
	}
	if strings.Contains(v.HTML, "style.css") || strings.Contains(v.HTML, "app.js") {
		t.Errorf("a relative reference was left:\n%s", v.HTML)
	}
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestViewFromFSKeepsSemantics: inlining keeps what the attributes meant.
// An inline classic script ignores defer, so the deferred ones move to the
// end of the body in their order (with the deferred scripts left external,
// so that the order holds); module scripts stay (inline ones are deferred
// too). A stylesheet for some media keeps its media on the <style>.
func TestViewFromFSKeepsSemantics(t *testing.T) {
	files := fstest.MapFS{
		"a.js":      {Data: []byte(`A()`)},
		"b.js":      {Data: []byte(`B()`)},
		"m.js":      {Data: []byte(`M()`)},
		"print.css": {Data: []byte(`p{}`)},
		"all.css":   {Data: []byte(`a{}`)},
	}
	tests := []struct {
		name, page, want string
	}{
		{"defer moves to the end of body",
			`<html><head><script defer src="a.js"></script></head><body><p>x</p></body></html>`,
			"<html><head></head><body><p>x</p><script>A()</script>\n</body></html>"},
		{"deferred keep their order, external ones with them",
			`<head><script src="a.js" defer></script><script defer="defer" src="https://cdn.example.com/lib.js"></script><script DEFER src='b.js' id=b></script></head><body><script>now()</script></body>`,
			"<head></head><body><script>now()</script><script>A()</script>\n<script src=\"https://cdn.example.com/lib.js\"></script>\n<script id=b>B()</script>\n</body>"},
		{"no body: appended",
			`<script defer src="a.js"></script><p>x</p>`,
			"<p>x</p><script>A()</script>\n"},
		{"module stays, defer or not",
			`<head><script type="module" defer src="m.js"></script></head><body></body>`,
			`<head><script type="module" defer>M()</script></head><body></body>`},
		{"plain script stays",
			`<head><script src="a.js"></script></head><body></body>`,
			`<head><script>A()</script></head><body></body>`},
		{"data-defer is not defer",
			`<head><script data-defer="1" src="a.js"></script></head><body></body>`,
			`<head><script data-defer="1">A()</script></head><body></body>`},
		{"media kept",
			`<link rel="stylesheet" media="print" href="print.css"><link href=all.css rel=stylesheet media=screen><link rel="stylesheet" href="all.css">`,
			`<style media="print">p{}</style><style media=screen>a{}</style><style>a{}</style>`},
		{"data-media is not media",
			`<link rel="stylesheet" data-media="print" href="all.css"/>`,
			`<style>a{}</style>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"index.html": {Data: []byte(tt.page)}}
			for k, v := range files {
				fsys[k] = v
			}
			v, err := apps.ViewFromFS("ui://t/v", fsys, "index.html")
			if err != nil {
				t.Fatal(err)
			}
			if v.HTML != tt.want {
				t.Errorf("HTML\n%s\nwant\n%s", v.HTML, tt.want)
			}
		})
	}
}

func TestViewFromFSMissing(t *testing.T) {
	fsys := fstest.MapFS{"index.html": {Data: []byte(`<script src="gone.js"></script>`)}}
	tests := []struct{ name, file string }{
		{"page", "nope.html"},
		{"script", "index.html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := apps.ViewFromFS("ui://t/v", fsys, tt.file)
			if !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("err = %v, want fs.ErrNotExist", err)
			}
		})
	}
}

func TestViewFromFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "v.html"), []byte(`<p>hi</p><script src="a.js"></script>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.js"), []byte(`1+1`), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := apps.ViewFromFile("ui://t/v.html", filepath.Join(dir, "v.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `<p>hi</p><script>1+1</script>`; v.HTML != want {
		t.Fatalf("HTML = %q, want %q", v.HTML, want)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		v    *apps.View
		ok   bool
	}{
		{"ok", apps.NewView("ui://weather/view.html", "<p>x</p>"), true},
		{"nil", nil, false},
		{"http scheme", apps.NewView("https://example.com/view.html", "<p>x</p>"), false},
		{"no scheme", apps.NewView("view.html", "<p>x</p>"), false},
		{"scheme only", apps.NewView("ui://", "<p>x</p>"), false},
		{"upper-case prefix", apps.NewView("UI://x", "<p>x</p>"), false},
		{"no HTML", apps.NewView("ui://x/v", "  \n"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.v.Validate()
			if (err == nil) != tt.ok {
				t.Fatalf("Validate() = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && !errors.Is(err, apps.ErrInvalidView) {
				t.Fatalf("err = %v, does not match ErrInvalidView", err)
			}
		})
	}
}

func TestMust(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Must did not panic on an error")
		}
	}()
	apps.Must(apps.ViewFromFS("ui://x", fstest.MapFS{}, "none.html"))
}
