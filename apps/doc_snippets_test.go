package apps_test

import (
	"encoding/json"
	"testing"

	"github.com/fastmcp-go/fastmcp/apps"
)

// TestDocSecurityMeta is the CSP snippet of docs/apps.md, and what it puts
// on the wire.
func TestDocSecurityMeta(t *testing.T) {
	view := apps.NewView("ui://media/player.html", "<p>player</p>")
	border := true
	view.Meta = apps.ViewMeta{
		CSP: &apps.CSP{
			ConnectDomains:  []string{"https://api.example.com"}, // fetch, XHR, WebSocket
			ResourceDomains: []string{"https://cdn.example.com"}, // scripts, styles, images, fonts
			FrameDomains:    []string{"https://www.youtube.com"}, // nested iframes
		},
		Permissions:   &apps.Permissions{ClipboardWrite: true}, // camera, microphone, geolocation too
		PrefersBorder: &border,                                 // nil: the host decides
		Domain:        "a904794854a047f6.claudemcpcontent.com", // a dedicated origin, in the host's format
	}
	b, err := json.Marshal(view.Meta)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"csp":{"connectDomains":["https://api.example.com"],"resourceDomains":["https://cdn.example.com"],"frameDomains":["https://www.youtube.com"]},"permissions":{"clipboardWrite":{}},"domain":"a904794854a047f6.claudemcpcontent.com","prefersBorder":true}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}
