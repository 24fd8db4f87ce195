package oauthserver

import (
	"html/template"
	"net/http"
	"strings"
)

var demoTemplate = template.Must(template.New("demo").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Sign in (demo)</title><style>` + pageStyle + `</style></head><body>
<h1>Sign in</h1>
<p class="warn"><strong>Demo login: no password.</strong> Anyone can sign in as anyone here. Never use it in production: give the server a Login that checks who the user is.</p>
<div class="box">
<p><strong>{{.ClientName}}</strong> asks for access.</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="demo_login" value="1">
<label>User name <input name="username" autocomplete="username" required maxlength="64" autofocus></label>
<button class="allow" type="submit">Sign in</button>
</form></div></body></html>`))

// DemoLogin returns a Login for demos and tests: a form that asks only a
// user name, with no password, and a visible warning saying so. The user
// is the name given: Subject and Name. Never use it in production.
func DemoLogin() Login {
	return LoginFunc(demoLogin)
}

func demoLogin(w http.ResponseWriter, r *http.Request, req *Request) (*User, error) {
	if r.Method == http.MethodPost && r.PostFormValue("demo_login") == "1" {
		if name := strings.TrimSpace(r.PostFormValue("username")); name != "" && len(name) <= 64 {
			return &User{Subject: name, Name: name}, nil
		}
	}
	pageHeaders(w)
	return nil, demoTemplate.Execute(w, map[string]string{"ClientName": req.ClientName, "Action": req.ReturnURL})
}
