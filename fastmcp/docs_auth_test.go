package fastmcp_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/fastmcp-go/fastmcp/auth"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// Example_authParts builds what the Auth option builds, from the auth
// package's three parts (docs/auth.md, "The three parts"): a verifier, the
// protected resource metadata, and the bearer-token check around the MCP
// endpoint.
func Example_authParts() {
	const resource = "https://mcp.example.com/mcp" // the endpoint's canonical URL

	verifier, err := auth.NewJWTVerifier(auth.JWTOptions{
		Issuer:   "https://idp.example.com",
		Audience: resource,
	})
	if err != nil {
		log.Fatal(err)
	}
	metadata, err := auth.MetadataHandler(&auth.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{"https://idp.example.com"},
		ScopesSupported:      []string{"files:read"},
	})
	if err != nil {
		log.Fatal(err)
	}
	metadataPath, _ := auth.WellKnownPath(resource) // /.well-known/oauth-protected-resource/mcp
	metadataURL, _ := auth.WellKnownURL(resource)

	requireToken := auth.RequireBearerToken(verifier, &auth.BearerOptions{
		ResourceMetadataURL: metadataURL,
		Scopes:              []string{"files:read"}, // needed by every request
	})

	s := fastmcp.New("files", "1.0.0", fastmcp.HTTPPrincipal(auth.PrincipalFromRequest))
	mux := http.NewServeMux()
	mux.Handle(metadataPath, metadata)  // public, CORS-enabled, outside the token check
	mux.Handle("/mcp", requireToken(s)) // the MCP endpoint

	ts := httptest.NewServer(mux)
	defer ts.Close()
	resp, err := http.Post(ts.URL+"/mcp", "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	resp, err = http.Get(ts.URL + metadataPath)
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body))
	// Output:
	// 401 Bearer scope="files:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// {"resource":"https://mcp.example.com/mcp","authorization_servers":["https://idp.example.com"],"scopes_supported":["files:read"]}
}

// The other snippets of docs/auth.md, each in a function that compiles;
// ExampleAuth, ExampleAuth_config and the tests of auth run the same calls.
var _ = []any{docAuthQuickstart, docAuthMount, docAuthProtectOptions, docAuthIntrospection, docAuthScopes}

func docAuthQuickstart() *fastmcp.Server {
	s := fastmcp.New("files", "1.0.0",
		fastmcp.Auth(auth.Protect(auth.JWT("https://idp.example.com", "https://mcp.example.com/mcp"))))
	return s
}

func docAuthMount(mux *http.ServeMux, s *fastmcp.Server) {
	mux.Handle("/mcp", s)
	mux.Handle("/.well-known/oauth-protected-resource/mcp", s) // the metadata document
}

func docAuthProtectOptions(verifier auth.TokenVerifier) {
	auth.Protect(verifier, func(c *auth.ProtectOptions) {
		c.Metadata.Resource = "https://mcp.example.com/mcp"                   // required with a verifier other than auth.JWT
		c.Metadata.AuthorizationServers = []string{"https://idp.example.com"} // likewise
		c.Metadata.ResourceName = "Files"
		c.Bearer.Scopes = []string{"files"} // the base scope: needed by every request, named in 401s
		c.Bearer.DPoP = &auth.DPoPOptions{} // accept DPoP-bound tokens too
	})
}

func docAuthIntrospection(resource string) (*auth.IntrospectionVerifier, error) {
	verifier, err := auth.NewIntrospectionVerifier(auth.IntrospectionOptions{
		Issuer:       "https://idp.example.com", // the endpoint is found in its metadata
		ClientID:     "mcp-resource-server",
		ClientSecret: os.Getenv("INTROSPECTION_SECRET"),
		Audience:     resource,
	})
	return verifier, err
}

// FileArgs, del, read and audit stand for a files server's handlers.
type FileArgs struct {
	Path string `json:"path" jsonschema:"description=the file's path"`
}

func del(in FileArgs) (string, error)  { return "deleted " + in.Path, nil }
func read(in FileArgs) (string, error) { return "contents of " + in.Path, nil }
func audit() string                    { return "Audit the files server's access log" }

func docAuthScopes(s *fastmcp.Server) {
	s.Tool("delete", del, fastmcp.RequireScopes("files:write"))
	s.Resource("files://{path}", read, fastmcp.RequireScopes("files:read"))
	s.Prompt("audit", audit, fastmcp.RequireScopes("files:read", "audit"))
}
