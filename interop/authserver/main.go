// Command authserver runs internal/oauthtest's authorization server for
// the interop script: metadata, keys, dynamic registration, an
// /authorize that approves at once, and a token endpoint issuing JWT
// access tokens.
//
//	go run ./interop/authserver -addr 127.0.0.1:9000
//
// It prints its URL (the issuer) on stdout when it is ready and serves
// until interrupted.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/fastmcp-go/fastmcp/internal/oauthtest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "`host:port` to listen on")
	subject := flag.String("subject", oauthtest.DefaultSubject, "subject of the tokens issued")
	alg := flag.String("alg", "ES256", "signature algorithm of the tokens: ES256 or RS256")
	scopes := flag.String("scopes", "", "comma-separated scopes supported (empty: any)")
	userScopes := flag.String("user-scopes", "", "comma-separated scopes the user grants (empty: all requested)")
	path := flag.String("path", "", "`path` of the issuer identifier, e.g. /tenant1 (empty: none)")
	flag.Parse()

	opts := oauthtest.Options{Subject: *subject, Algorithm: *alg, ScopesSupported: list(*scopes), UserScopes: list(*userScopes), Path: *path}
	as, err := oauthtest.New(opts)
	if err == nil {
		err = as.Start(*addr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "authserver:", err)
		os.Exit(1)
	}
	// The signals are caught before the URL is printed: a caller that
	// read it may stop the server at once.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Println(as.URL())
	<-ctx.Done()
	if err := as.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "authserver:", err)
		os.Exit(1)
	}
}

// list splits a comma-separated flag; empty gives nil.
func list(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
