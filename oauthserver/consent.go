package oauthserver

import (
	"crypto/subtle"
	"errors"
	"html/template"
	"net"
	"net/http"
	"net/url"

	"github.com/ory/fosite"

	"github.com/fastmcp-go/fastmcp/store"
)

// pageStyle is the pages' CSS: plain, no JavaScript anywhere.
const pageStyle = `body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}.box{border:1px solid #ccc;border-radius:8px;padding:1rem 1.2rem}
code{background:#f3f3f3;padding:0 .2rem;word-break:break-all}.warn{background:#fff3cd;border:1px solid #e0c060;padding:.6rem;border-radius:6px}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.6rem;border-radius:6px;border:1px solid #888;cursor:pointer}
button.allow{background:#1a7f37;color:#fff;border-color:#1a7f37}input{font-size:1rem;padding:.4rem}`

var pages = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Allow {{.ClientName}}?</title><style>` + pageStyle + `</style></head><body>
<h1>Allow <strong>{{.ClientName}}</strong> to use your account?</h1>
<div class="box">
<p>Signed in as <strong>{{.UserName}}</strong>.</p>
<p>The application <strong>{{.ClientName}}</strong> (client ID <code>{{.ClientID}}</code>) asks for access{{if .Scopes}} with the scopes:{{else}}.{{end}}</p>
{{if .Scopes}}<ul>{{range .Scopes}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}
<p>It will be sent back to <strong>{{.RedirectHost}}</strong> (<code>{{.RedirectURI}}</code>) with access to <code>{{.Resource}}</code>.</p>
<p>Allow it only if you started this and trust that address.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="request" value="{{.RequestID}}"><input type="hidden" name="csrf" value="{{.CSRF}}">
<button class="allow" type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form></div></body></html>`))

var errorTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title><style>` + pageStyle + `</style></head>
<body><h1>{{.Title}}</h1><p>{{.Message}}</p></body></html>`))

// pageHeaders are the headers of every HTML page: no framing, no scripts.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
}

// consentPage shows what the client asks for, with Allow and Deny.
func (s *Server) consentPage(w http.ResponseWriter, p *pending, cl *client) {
	host := p.RedirectURI
	if u, err := url.Parse(p.RedirectURI); err == nil && u.Host != "" {
		host = u.Host
	}
	name := p.User.Name
	if name == "" {
		name = p.User.Subject
	}
	pageHeaders(w)
	err := pages.Execute(w, map[string]any{
		"ClientName": cl.Name, "ClientID": cl.ID, "Scopes": p.Scopes, "UserName": name,
		"RedirectHost": host, "RedirectURI": p.RedirectURI, "Resource": p.Resource,
		"Action": s.base + pathConsent, "RequestID": p.ID, "CSRF": p.CSRF,
	})
	if err != nil {
		s.cfg.Logger.Error("oauthserver: the consent page", "error", err)
	}
}

// consent serves the consent form's POST: with the browser's cookie and
// the request's CSRF token, once per request, it issues the code or
// answers access_denied.
func (s *Server) consent(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		s.errorPage(w, http.StatusMethodNotAllowed, "Method not allowed", "Answer from the consent page.")
		return
	}
	ctx := r.Context()
	p, err := s.loadPending(ctx, r.PostFormValue("request"), false)
	if errors.Is(err, store.ErrKeyNotFound) {
		s.errorPage(w, http.StatusBadRequest, "Request expired", "This authorization request is unknown, expired or already answered: start again from the application.")
		return
	} else if err != nil {
		s.serverError(w, err)
		return
	}
	csrf := r.PostFormValue("csrf")
	if !sameBrowser(r, p) || csrf == "" || subtle.ConstantTimeCompare([]byte(csrf), []byte(p.CSRF)) != 1 || p.User == nil {
		s.cfg.Logger.Info("oauthserver: consent refused: wrong browser, CSRF token or no user", "client_id", p.ClientID)
		s.errorPage(w, http.StatusForbidden, "Consent refused", "This answer did not come from the consent page of this browser.")
		return
	}
	if p, err = s.loadPending(ctx, p.ID, true); err != nil {
		s.errorPage(w, http.StatusBadRequest, "Request already answered", "Start again from the application.")
		return
	}
	if r.PostFormValue("decision") != "allow" {
		s.redirectError(w, r, p.RedirectURI, p.State, "access_denied", "the user denied the request")
		return
	}
	s.issueCode(w, r, p)
}

// issueCode has fosite issue the code of an approved request and sends
// the browser back to the client with it, its state and our iss.
func (s *Server) issueCode(w http.ResponseWriter, r *http.Request, p *pending) {
	ctx := r.Context()
	q, err := url.ParseQuery(p.Query)
	if err != nil {
		s.serverError(w, err)
		return
	}
	ar, err := s.provider.NewAuthorizeRequest(ctx, asGet(r, q))
	if err != nil {
		code, desc := oauthError(err)
		s.redirectError(w, r, p.RedirectURI, p.State, code, desc)
		return
	}
	for _, sc := range ar.GetRequestedScopes() {
		ar.GrantScope(sc)
	}
	ar.GrantAudience(p.Resource)
	sess := &session{Subject: p.User.Subject, Name: p.User.Name, Claims: p.User.Claims}
	resp, err := s.provider.NewAuthorizeResponse(ctx, ar, sess)
	if err != nil {
		code, desc := oauthError(err)
		s.redirectError(w, r, p.RedirectURI, p.State, code, desc)
		return
	}
	resp.AddParameter("iss", s.cfg.Issuer)
	s.provider.WriteAuthorizeResponse(ctx, w, ar, resp)
}

// oauthError is the OAuth error code and description of a fosite error.
func oauthError(err error) (code, desc string) {
	e := fosite.ErrorToRFC6749Error(err)
	desc = e.DescriptionField
	if e.HintField != "" {
		desc += " " + e.HintField
	}
	return e.ErrorField, desc
}

// redirectError sends the browser back to the client's (checked)
// redirect URI with an error, the request's state and our iss (RFC 9207).
func (s *Server) redirectError(w http.ResponseWriter, r *http.Request, redirect, state, code, desc string) {
	u, err := url.Parse(redirect)
	if err != nil {
		s.errorPage(w, http.StatusBadRequest, "Invalid redirect URI", "The address this application asked to return to is invalid.")
		return
	}
	q := u.Query()
	q.Set("error", code)
	if desc != "" {
		q.Set("error_description", desc)
	}
	if state != "" {
		q.Set("state", state)
	}
	q.Set("iss", s.cfg.Issuer)
	u.RawQuery = q.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, u.String(), http.StatusSeeOther)
}

// errorPage shows an error to the person at the browser, never
// redirecting.
func (s *Server) errorPage(w http.ResponseWriter, status int, title, msg string) {
	pageHeaders(w)
	w.WriteHeader(status)
	_ = errorTemplate.Execute(w, map[string]string{"Title": title, "Message": msg})
}

// serverError logs err and shows a page that does not reveal it.
func (s *Server) serverError(w http.ResponseWriter, err error) {
	s.cfg.Logger.Error("oauthserver: authorization request failed", "error", err)
	s.errorPage(w, http.StatusInternalServerError, "Server error", "The authorization server failed; try again later.")
}

// redirectAllowed reports whether got is one of registered: exactly, or
// a loopback http URI on any port (RFC 8252 §7.3).
func redirectAllowed(registered []string, got string) bool {
	g, err := url.Parse(got)
	if err != nil || got == "" || g.Fragment != "" {
		return false
	}
	for _, reg := range registered {
		if reg == got {
			return true
		}
		u, err := url.Parse(reg)
		if err != nil || u.Scheme != "http" || g.Scheme != "http" || !isLoopbackIP(u.Hostname()) {
			continue
		}
		if u.Hostname() == g.Hostname() && u.Path == g.Path && u.RawQuery == g.RawQuery {
			return true
		}
	}
	return false
}

func isLoopbackIP(h string) bool {
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
