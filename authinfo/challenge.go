package authinfo

import (
	"context"
	"net/http"
	"slices"
	"strings"
)

// Challenge is one WWW-Authenticate challenge of a protected resource
// (RFC 6750 §3, RFC 9728 §5.1, RFC 9449 §7.1).
type Challenge struct {
	// Scheme is "Bearer" when empty, or "DPoP".
	Scheme string
	// Error is the error code, such as "invalid_token" or
	// "insufficient_scope"; empty when the request had no credentials.
	Error string
	// Description is the error_description.
	Description string
	// Scopes are named in the scope parameter, space-separated.
	Scopes []string
	// ResourceMetadata is the URL of the protected resource metadata
	// document (resource_metadata).
	ResourceMetadata string
	// Algs are the DPoP proof algorithms accepted (algs; DPoP only).
	Algs []string
}

// String renders the challenge, its parameters in a fixed order: error,
// error_description, scope, resource_metadata, algs. Quotes and
// backslashes in values are escaped.
func (c Challenge) String() string {
	var b strings.Builder
	if c.Scheme == "" {
		c.Scheme = "Bearer"
	}
	b.WriteString(c.Scheme)
	sep := " "
	param := func(name, value string) {
		b.WriteString(sep)
		sep = ", "
		b.WriteString(name)
		b.WriteString(`="`)
		for _, r := range value {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	if c.Error != "" {
		param("error", c.Error)
	}
	if c.Description != "" {
		param("error_description", c.Description)
	}
	if len(c.Scopes) > 0 {
		param("scope", strings.Join(c.Scopes, " "))
	}
	if c.ResourceMetadata != "" {
		param("resource_metadata", c.ResourceMetadata)
	}
	if len(c.Algs) > 0 {
		param("algs", strings.Join(c.Algs, " "))
	}
	return b.String()
}

type challengeKey struct{}

// WithChallenge returns a copy of ctx that carries c: what the bearer
// middleware that let the request through names in its challenges. Its
// Scopes are the scopes every token needs, its ResourceMetadata the
// metadata URL and its Algs the DPoP proof algorithms (nil without DPoP);
// WriteInsufficientScope builds on them. Scheme, Error and Description are
// not used.
func WithChallenge(ctx context.Context, c Challenge) context.Context {
	return context.WithValue(ctx, challengeKey{}, c)
}

// WriteInsufficientScope answers w with 403 Forbidden and a challenge
// with error="insufficient_scope" for a request that needs scopes its
// token lacks, so that the client can ask for them (step-up). The
// challenge names, as scope, the scopes every token needs (the
// WithChallenge of the request's context) followed by scopes (name every
// scope the operation needs, not only the missing ones, so the client asks
// for all of them at once); as resource_metadata, resourceMetadataURL, or
// when it is empty the context's. For a DPoP-bound token
// (TokenInfo.ConfirmationJKT set) the challenge is in the DPoP scheme, as
// RFC 9449 §7.1 asks, with the context's algs:
//
//	DPoP error="insufficient_scope", scope="files:write", resource_metadata="…", algs="ES256"
func WriteInsufficientScope(w http.ResponseWriter, r *http.Request, resourceMetadataURL string, scopes ...string) {
	base, _ := r.Context().Value(challengeKey{}).(Challenge)
	c := Challenge{Error: "insufficient_scope", ResourceMetadata: resourceMetadataURL}
	if c.ResourceMetadata == "" {
		c.ResourceMetadata = base.ResourceMetadata
	}
	c.Scopes = append(c.Scopes, base.Scopes...)
	for _, sc := range scopes {
		if !slices.Contains(c.Scopes, sc) {
			c.Scopes = append(c.Scopes, sc)
		}
	}
	if info := FromContext(r.Context()); info != nil && info.ConfirmationJKT != "" {
		c.Scheme, c.Algs = "DPoP", base.Algs
	}
	w.Header().Set("WWW-Authenticate", c.String())
	http.Error(w, "insufficient scope", http.StatusForbidden)
}
