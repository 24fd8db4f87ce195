package oauthserver

import "net/http"

// A Login tells the authorization server who the person at the browser
// is. The server calls it on the browser's request when an authorization
// request needs a user, before the consent page.
//
// Login returns the user when r shows who it is: the application's own
// session cookie, the form of a login page it wrote before, or what an
// upstream identity provider said (the OAuth proxy). Otherwise it writes
// a page or a redirect to w and returns nil, nil; the browser must come
// back to req.ReturnURL (a GET, or a POST of the login form) once the
// person has signed in, and the server calls Login again there. An error
// ends the authorization request: the client is sent an access_denied
// error (the error's text is logged, never shown to the client).
type Login interface {
	Login(w http.ResponseWriter, r *http.Request, req *Request) (*User, error)
}

// LoginFunc is a Login made of a function.
type LoginFunc func(w http.ResponseWriter, r *http.Request, req *Request) (*User, error)

// Login calls f.
func (f LoginFunc) Login(w http.ResponseWriter, r *http.Request, req *Request) (*User, error) {
	return f(w, r, req)
}

// LoginRoutes is implemented by a Login that serves pages of its own
// beside the server's endpoints: the redirect URI an upstream identity
// provider sends the browser back to, a form's target. The server serves
// each handler at its path (a net/http ServeMux pattern without a host,
// such as "/oauth/upstream/callback") on the issuer's origin.
type LoginRoutes interface {
	Routes() map[string]http.Handler
}

// A Request is an authorization request waiting for its user: what a
// Login may show the person signing in.
type Request struct {
	// ID identifies the request while it waits (a random string, at most
	// 64 characters); a Login that keeps state across the pages it shows
	// keys it by ID.
	ID string
	// ClientID and ClientName name the client that asks; ClientName is
	// what the client registered, not verified.
	ClientID, ClientName string
	// RedirectURI is where the client's answer will be sent.
	RedirectURI string
	// Scopes are the scopes the client asks for.
	Scopes []string
	// Resource is the resource (RFC 8707) the token will be for.
	Resource string
	// ReturnURL is the absolute URL of the server's page that continues
	// this request: the browser comes back there after signing in.
	ReturnURL string
}

// User is the person a Login recognized.
type User struct {
	// Subject identifies the user for good: it becomes the "sub" of the
	// tokens. Required; at most 255 bytes.
	Subject string
	// Name is shown on the consent page ("Signed in as ..."); Subject
	// when empty.
	Name string
	// Claims are added to the access tokens issued for this user (for
	// example "email"). The registered claims (iss, sub, aud, exp, iat,
	// nbf, jti, client_id, scope, cnf) cannot be set this way.
	Claims map[string]any
}
