package oauthclient_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/fastmcp-go/fastmcp/oauthclient"
)

func TestStores(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	stores := map[string]oauthclient.TokenStore{
		"memory": oauthclient.NewMemoryStore(),
		"file":   oauthclient.NewFileStore(filepath.Join(dir, "tokens.json")),
	}
	for name, s := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			if r, err := s.Load(ctx, "https://a.example/mcp"); r != nil || err != nil {
				t.Fatalf("Load of an unknown key: %v, %v; want nil, nil", r, err)
			}
			rec := &oauthclient.Record{
				Resource: "https://a.example/mcp", Issuer: "https://as.example",
				Client: &oauthclient.Registration{ClientID: "c", ClientSecret: "s", PrivateKey: key},
				Token:  &oauth2.Token{AccessToken: "at", RefreshToken: "rt", TokenType: "Bearer"},
				Scopes: []string{"a"},
			}
			if err := s.Save(ctx, "https://a.example/mcp", rec); err != nil {
				t.Fatal(err)
			}
			if err := s.Save(ctx, "https://b.example/mcp", &oauthclient.Record{Issuer: "other"}); err != nil {
				t.Fatal(err)
			}
			rec.Scopes[0] = "changed after saving"
			got, err := s.Load(ctx, "https://a.example/mcp")
			if err != nil {
				t.Fatal(err)
			}
			if got.Issuer != "https://as.example" || got.Token.RefreshToken != "rt" || got.Client.ClientSecret != "s" || got.Scopes[0] != "a" {
				t.Errorf("loaded %+v", got)
			}
			if name == "file" && got.Client.PrivateKey != nil {
				t.Error("the file store kept the private key")
			}
		})
	}
	// The file: 0600, no temporary files left, no private key in it.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1", len(entries))
	}
	path := filepath.Join(dir, "tokens.json")
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "PrivateKey") || strings.Contains(string(data), "private") {
		t.Errorf("token file holds the private key:\n%s", data)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v, %v; want mode 0600", fi, err)
	}
	// A corrupt file is an error, not an empty store.
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := oauthclient.NewFileStore(path).Load(t.Context(), "x"); err == nil {
		t.Error("Load of a corrupt file succeeded")
	}
}
