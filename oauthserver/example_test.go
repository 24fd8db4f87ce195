package oauthserver_test

import (
	"encoding/json"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/oauthserver"
)

// ExampleNew serves an authorization server and the MCP endpoint it
// protects on one origin: Protect verifies the server's own tokens and
// mounts its endpoints (metadata, authorize, token, register, jwks) beside
// the MCP endpoint.
func ExampleNew() {
	as, err := oauthserver.New(oauthserver.Config{
		Issuer:    "http://127.0.0.1:8000",
		Resources: []string{"http://127.0.0.1:8000/mcp"},
		Login:     oauthserver.DemoLogin(), // a demo: no password
		Clients: []oauthserver.Client{
			{ID: "my-app", RedirectURIs: []string{"http://127.0.0.1:3000/callback"}},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	s := fastmcp.New("files", "1.0.0", fastmcp.Auth(as.Protect("http://127.0.0.1:8000/mcp")))
	_ = s // s.Run(ctx) serves both on 127.0.0.1:8000

	w := httptest.NewRecorder()
	as.ServeHTTP(w, httptest.NewRequest("GET", "/.well-known/oauth-authorization-server", nil))
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m["issuer"])
	fmt.Println(m["authorization_endpoint"])
	fmt.Println(m["token_endpoint"])
	fmt.Println(m["code_challenge_methods_supported"])
	// Output:
	// http://127.0.0.1:8000
	// http://127.0.0.1:8000/authorize
	// http://127.0.0.1:8000/token
	// [S256]
}

// ExampleNew_errors: New names the field to fix.
func ExampleNew_errors() {
	_, err := oauthserver.New(oauthserver.Config{Issuer: "http://auth.example.com", Resources: []string{"https://mcp.example.com/mcp"}})
	fmt.Println(err)
	// Output:
	// oauthserver: invalid Config: Issuer: "http://auth.example.com": must be https, or http on a loopback host
}
