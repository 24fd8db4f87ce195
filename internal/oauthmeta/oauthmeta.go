// Package oauthmeta holds what the server side (package auth) and the
// client side (package oauthclient) of MCP authorization both need to know
// about OAuth authorization server metadata.
package oauthmeta

import (
	"net/url"
	"strings"
)

// MetadataURLs lists where the metadata of issuer may be, in the order MCP
// names (2025-11-25; RFC 8414 §3.1 and §5, OpenID Connect Discovery): OAuth
// with the well-known segment inserted before the issuer's path, then
// OpenID Connect inserted, then OpenID Connect appended. Without a path,
// the two well-known URLs at the root.
func MetadataURLs(issuer *url.URL) []string {
	origin := issuer.Scheme + "://" + issuer.Host
	p := strings.TrimSuffix(issuer.EscapedPath(), "/")
	if p == "" {
		return []string{
			origin + "/.well-known/oauth-authorization-server",
			origin + "/.well-known/openid-configuration",
		}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server" + p,
		origin + "/.well-known/openid-configuration" + p,
		origin + p + "/.well-known/openid-configuration",
	}
}
