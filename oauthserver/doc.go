// Package oauthserver is an OAuth 2.1 authorization server for MCP
// servers: it lets MCP clients register (dynamically or with a client ID
// metadata document), sends the person at the browser through the
// application's Login and a consent page, and issues JWT access tokens
// for the MCP server's resource. Package oauthproxy puts it in front of an
// upstream identity provider (GitHub, Google, Entra, any OpenID
// provider).
//
// It is a module of its own, so that a server that does not issue tokens
// links none of it.
package oauthserver
