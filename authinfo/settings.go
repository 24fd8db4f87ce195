package authinfo

// Settings are the auth settings a server resolved from its command-line
// flags and environment when it started serving HTTP (fastmcp's
// -auth-issuer and FASTMCP_AUTH_ISSUER, and the others): the values that
// differ between deployments, so that one program serves staging and
// production. The server hands them to its HTTPAuth (package auth's
// Protection), which fills in those its own configuration leaves empty and
// refuses one that differs from its configuration. An empty Value was not
// set.
type Settings struct {
	// Issuer is the authorization server whose tokens are accepted.
	Issuer Setting
	// Audience is the "aud" tokens must carry.
	Audience Setting
	// Resource is the URL clients reach the MCP endpoint at, published in
	// the protected resource metadata (the audience by default).
	Resource Setting
	// JWKSURL is the issuer's key set, when it is not to be discovered.
	JWKSURL Setting
}

// Setting is the value of one setting and where it came from.
type Setting struct {
	// Value is the setting's value; empty when it was not set.
	Value string
	// From names where Value came from, for errors, such as
	// "flag -auth-issuer" or "FASTMCP_AUTH_ISSUER".
	From string
}

// Set reports whether the setting was given.
func (s Setting) Set() bool { return s.Value != "" }
