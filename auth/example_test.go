package auth_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/fastmcp-go/fastmcp/auth"
)

// A protected endpoint: the metadata document at its well-known path, and
// /mcp behind RequireBearerToken. A real server would use NewJWTVerifier
// or NewIntrospectionVerifier; this one knows two tokens, "reader" and
// "writer".
func Example() {
	const resource = "https://mcp.example.com/mcp"
	metadata, err := auth.MetadataHandler(&auth.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{"https://idp.example.com"},
		ScopesSupported:      []string{"files:read"},
	})
	if err != nil {
		panic(err)
	}
	metadataPath, _ := auth.WellKnownPath(resource)
	metadataURL, _ := auth.WellKnownURL(resource)

	verifier := auth.VerifierFunc(func(ctx context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		switch token {
		case "reader":
			return &auth.TokenInfo{Subject: "alice", Scopes: []string{"files:read"}}, nil
		case "writer":
			return &auth.TokenInfo{Subject: "bob", Scopes: []string{"files:read", "files:write"}}, nil
		}
		return nil, auth.ErrInvalidToken
	})
	requireToken := auth.RequireBearerToken(verifier, &auth.BearerOptions{
		ResourceMetadataURL: metadataURL,
		Scopes:              []string{"files:read"},
	})
	mcp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info := auth.TokenInfoFrom(r.Context())
		if missing := info.MissingScopes("files:write"); missing != nil {
			auth.WriteInsufficientScope(w, metadataURL, "files:read", "files:write")
			return
		}
		fmt.Fprintln(w, "hello", info.Subject)
	})

	mux := http.NewServeMux()
	mux.Handle(metadataPath, metadata)
	mux.Handle("/mcp", requireToken(mcp))
	srv := httptest.NewServer(mux)
	defer srv.Close()

	get := func(path, token string) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusOK {
			fmt.Printf("%d %s", resp.StatusCode, body)
		} else {
			fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
	get("/mcp", "")
	get("/mcp", "forged")
	get("/mcp", "reader")
	get("/mcp", "writer")
	get(metadataPath, "")
	// Output:
	// 401 Bearer scope="files:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 401 Bearer error="invalid_token", scope="files:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 403 Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 200 hello bob
	// 200 {"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"scopes_supported":["files:read"]}
}
