package apps_test

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// FuzzViewFromFS feeds arbitrary pages to the inliner: it must not panic,
// must leave a page without script or link tags as it is, and must never
// leave a closing tag of an inlined file that would end its element early.
func FuzzViewFromFS(f *testing.F) {
	f.Add(`<link rel="stylesheet" href="s.css"><script src="a.js"></script>`)
	f.Add(`<script type=module src='a.js'></script><link href=s.css rel=stylesheet>`)
	f.Add(`<script src="https://cdn.example/x.js"></script><link rel="icon" href="s.css">`)
	f.Add(`<SCRIPT SRC="a.js"></SCRIPT><script src="missing.js"></script>`)
	f.Add(`<p>no tags</p>`)
	const js = `x = "</script>"`
	const css = `/* </style> */ p { color: red }`
	fsys := fstest.MapFS{"a.js": {Data: []byte(js)}, "s.css": {Data: []byte(css)}}
	f.Fuzz(func(t *testing.T, page string) {
		fsys := withPage(fsys, page)
		v, err := apps.ViewFromFS("ui://f/v.html", fsys, "index.html")
		if err != nil {
			return // a missing file: reported, as it must be
		}
		lower := strings.ToLower(page)
		if !strings.Contains(lower, "<script") && !strings.Contains(lower, "<link") && v.HTML != page {
			t.Fatalf("a page without scripts or links changed:\n%q\n%q", page, v.HTML)
		}
		if strings.Count(strings.ToLower(v.HTML), "</script") > strings.Count(lower, "</script") {
			t.Fatalf("inlining added a </script:\n%q", v.HTML)
		}
	})
}

func withPage(base fstest.MapFS, page string) fstest.MapFS {
	m := fstest.MapFS{"index.html": {Data: []byte(page)}}
	for k, v := range base {
		m[k] = v
	}
	return m
}

// FuzzMetaDecoding feeds arbitrary JSON to the decoders of the extension's
// metadata: they must not panic, and what they accept must encode again.
func FuzzMetaDecoding(f *testing.F) {
	f.Add(`{"mimeTypes":["text/html;profile=mcp-app"]}`)
	f.Add(`{"resourceUri":"ui://a/b","visibility":["app","model"]}`)
	f.Add(`{"csp":{"connectDomains":["https://a"]},"permissions":{"camera":{}},"prefersBorder":false}`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, raw string) {
		apps.ClientSupports(&protocol.ClientCapabilities{Extensions: map[string]json.RawMessage{apps.Extension: json.RawMessage(raw)}})
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			return
		}
		if m, ok, err := apps.ToolMetaOf(&protocol.Tool{Name: "t", Meta: protocol.Meta{apps.MetaKey: v}}); err == nil && ok {
			if _, err := json.Marshal(m); err != nil {
				t.Fatalf("ToolMeta %+v does not encode: %v", m, err)
			}
		}
		if m, err := apps.ViewMetaOf(protocol.Meta{apps.MetaKey: v}); err == nil {
			if _, err := json.Marshal(m); err != nil {
				t.Fatalf("ViewMeta %+v does not encode: %v", m, err)
			}
		}
	})
}
