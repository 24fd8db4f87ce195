package auth

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestWellKnownPath(t *testing.T) {
	for _, tt := range []struct{ resource, path, url string }{
		{"https://mcp.example.com/mcp", "/.well-known/oauth-protected-resource/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"},
		{"https://mcp.example.com/public/mcp/", "/.well-known/oauth-protected-resource/public/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp"},
		{"https://mcp.example.com", "/.well-known/oauth-protected-resource", "https://mcp.example.com/.well-known/oauth-protected-resource"},
		{"https://mcp.example.com/", "/.well-known/oauth-protected-resource", "https://mcp.example.com/.well-known/oauth-protected-resource"},
		{"http://127.0.0.1:8000/mcp", "/.well-known/oauth-protected-resource/mcp", "http://127.0.0.1:8000/.well-known/oauth-protected-resource/mcp"},
	} {
		p, err := WellKnownPath(tt.resource)
		if err != nil || p != tt.path {
			t.Errorf("WellKnownPath(%q) = %q, %v; want %q", tt.resource, p, err, tt.path)
		}
		u, err := WellKnownURL(tt.resource)
		if err != nil || u != tt.url {
			t.Errorf("WellKnownURL(%q) = %q, %v; want %q", tt.resource, u, err, tt.url)
		}
	}
	for _, bad := range []string{"mcp.example.com", "https://mcp.example.com#f", "https://mcp.example.com/mcp?x=1", "ftp://x/y", "https://u:p@x/mcp"} {
		if _, err := WellKnownPath(bad); err == nil {
			t.Errorf("WellKnownPath(%q): no error", bad)
		}
	}
}

// TestMetadataHandler serves the document at its path-aware and root
// well-known URLs and checks the headers a browser client needs.
func TestMetadataHandler(t *testing.T) {
	m := &ProtectedResourceMetadata{
		Resource:               "https://mcp.example.com/mcp",
		AuthorizationServers:   []string{"https://idp.example.com"},
		ScopesSupported:        []string{"files:read"},
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "Files",
	}
	h, err := MetadataHandler(m)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := WellKnownPath(m.Resource)
	mux := http.NewServeMux()
	mux.Handle(path, h)
	mux.Handle(WellKnownPrefix, h)
	srv := httptest.NewServer(mux)
	defer srv.Close()

	for _, p := range []string{path, WellKnownPrefix} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+p, nil)
		req.Header.Set("Origin", "https://app.example")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", p, resp.Status)
		}
		want := `{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"scopes_supported":["files:read"],"bearer_methods_supported":["header"],"resource_name":"Files"}`
		if string(body) != want {
			t.Errorf("body = %s\nwant %s", body, want)
		}
		var back ProtectedResourceMetadata
		if err := json.Unmarshal(body, &back); err != nil || back.Resource != m.Resource {
			t.Errorf("round trip: %v %+v", err, back)
		}
		for k, v := range map[string]string{
			"Content-Type":                "application/json",
			"Cache-Control":               "public, max-age=3600",
			"Access-Control-Allow-Origin": "*",
		} {
			if got := resp.Header.Get(k); got != v {
				t.Errorf("%s: %q, want %q", k, got, v)
			}
		}
		if resp.Header.Get("ETag") == "" || resp.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("ETag %q, Allow-Credentials %q", resp.Header.Get("ETag"), resp.Header.Get("Access-Control-Allow-Credentials"))
		}

		req, _ = http.NewRequest(http.MethodGet, srv.URL+p, nil)
		req.Header.Set("If-None-Match", resp.Header.Get("ETag"))
		resp2, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp2.Body.Close()
		if resp2.StatusCode != http.StatusNotModified {
			t.Errorf("conditional GET: %s", resp2.Status)
		}
	}

	req, _ := http.NewRequest(http.MethodOptions, srv.URL+path, nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "mcp-protocol-version")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		resp.Header.Get("Access-Control-Allow-Methods") != "GET, HEAD, OPTIONS" ||
		resp.Header.Get("Access-Control-Allow-Headers") != corsAllowHeaders {
		t.Errorf("preflight: %s %v", resp.Status, resp.Header)
	}

	resp, err = http.Head(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("HEAD: %s %v", resp.Status, resp.Header)
	}

	resp, err = http.Post(srv.URL+path, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD, OPTIONS" {
		t.Errorf("POST: %s %v", resp.Status, resp.Header)
	}

	if _, err := MetadataHandler(&ProtectedResourceMetadata{Resource: "mcp"}); err == nil {
		t.Error("MetadataHandler accepted a relative resource")
	}
}
