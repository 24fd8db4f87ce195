package oauthclient

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"time"
)

// authResponse is the authorization response the browser brings back to
// the redirect URI (RFC 6749 §4.1.2, RFC 9207).
type authResponse struct {
	Code, State             string
	Iss                     string
	HasIss                  bool
	Error, ErrorDescription string
}

// callback is a loopback HTTP server waiting for one authorization
// response at the redirect URI. Its serving goroutine is owned by the
// authorization in progress, and close ends it.
type callback struct {
	url  string // the redirect URI, with the port it listens on
	srv  *http.Server
	done chan struct{} // closed when Serve has returned
	got  chan authResponse
}

// listen starts the callback server for redirect (a loopback http URL,
// port 0 meaning any free port).
func listen(redirect string) (*callback, error) {
	u, err := parseRedirect(redirect)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", u.Host)
	if err != nil {
		return nil, fmt.Errorf("oauthclient: listening for the authorization response: %w", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	u.Host = net.JoinHostPort(u.Hostname(), fmt.Sprint(port))
	path := u.Path
	if path == "" {
		path = "/"
	}
	cb := &callback{url: u.String(), done: make(chan struct{}), got: make(chan authResponse, 1)}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+path, cb.serve)
	cb.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(cb.done)
		_ = cb.srv.Serve(ln) // ends with ErrServerClosed on close
	}()
	return cb, nil
}

// serve takes the first authorization response and tells the user what
// happened.
func (cb *callback) serve(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res := authResponse{
		Code: q.Get("code"), State: q.Get("state"),
		Iss: q.Get("iss"), HasIss: q.Has("iss"),
		Error: q.Get("error"), ErrorDescription: q.Get("error_description"),
	}
	select {
	case cb.got <- res:
	default: // a second response (a reload): the first one counts
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if res.Error != "" {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, "<!doctype html><title>Authorization failed</title><p>Authorization failed: %s. You can close this window.</p>\n", html.EscapeString(res.Error))
		return
	}
	fmt.Fprint(w, "<!doctype html><title>Authorized</title><p>Authorization complete. You can close this window.</p>\n")
}

// wait returns the authorization response, or fails when ctx ends first.
func (cb *callback) wait(ctx context.Context) (authResponse, error) {
	select {
	case res := <-cb.got:
		return res, nil
	case <-ctx.Done():
		return authResponse{}, fmt.Errorf("oauthclient: waiting for the authorization response at %s: %w", cb.url, context.Cause(ctx))
	}
}

// close stops the server and waits for its goroutine.
func (cb *callback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := cb.srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		_ = cb.srv.Close()
	}
	<-cb.done
}
