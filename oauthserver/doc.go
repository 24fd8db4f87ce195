// Package oauthserver is an OAuth 2.1 authorization server for MCP
// servers: it lets MCP clients register (dynamically or with a client ID
// metadata document), sends the person at the browser through the
// application's Login and a consent page, and issues JWT access tokens
// for the MCP server's resource. Package oauthproxy puts it in front of an
// upstream identity provider (GitHub, Google, Entra, any OpenID
// provider).
//
// New returns the server, an http.Handler; (*Server).Protect protects a
// fastmcp server with it on the same origin:
//
//	as, err := oauthserver.New(oauthserver.Config{
//		Issuer:    "https://mcp.example.com",
//		Resources: []string{"https://mcp.example.com/mcp"},
//		Login:     myLogin, // who is the person at the browser
//		Store:     kv,      // shared by the replicas
//	})
//	s := fastmcp.New("files", "1.0.0", fastmcp.Auth(as.Protect("https://mcp.example.com/mcp")))
//
// The grants are ory/fosite's: the authorization code grant with PKCE
// (S256), refresh tokens rotated at each use, revocation and
// introspection. Access tokens are RFC 9068 JWTs for the resource
// (RFC 8707), signed by keys the server rotates, optionally DPoP-bound.
// DemoLogin is a Login for demos and tests; package oauthtest plays the
// browser through the pages in tests.
//
// It is a module of its own, so that a server that does not issue tokens
// links none of it.
package oauthserver
