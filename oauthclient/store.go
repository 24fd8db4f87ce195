package oauthclient

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/oauth2"
)

// Record is what a TokenStore keeps for one MCP server: the authorization
// server that issued the token, how the client is registered there, the
// token and the scopes it was asked for.
type Record struct {
	// Resource is the resource identifier the token is for (RFC 8707).
	Resource string `json:"resource,omitempty"`
	// Issuer is the authorization server that issued Token and Client.
	Issuer string `json:"issuer,omitempty"`
	// Client is the client's registration at Issuer, nil if none yet.
	Client *Registration `json:"client,omitempty"`
	// Token is the current token, nil if none yet.
	Token *oauth2.Token `json:"token,omitempty"`
	// Scopes are the scopes the token was requested with.
	Scopes []string `json:"scopes,omitempty"`
}

// Registration is a client's identity at one authorization server:
// registered dynamically (RFC 7591), pre-registered, or a client ID
// metadata document URL.
type Registration struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret,omitempty"`
	// AuthMethod is the token endpoint authentication method: "none",
	// "client_secret_basic", "client_secret_post" or "private_key_jwt".
	// Empty means chosen from what the authorization server supports
	// (private_key_jwt when PrivateKey is set).
	AuthMethod string `json:"token_endpoint_auth_method,omitempty"`
	// PrivateKey authenticates the client with a signed JWT instead of a
	// secret (private_key_jwt, RFC 7523 §2.2): an ECDSA, RSA or Ed25519
	// key. It is never stored.
	PrivateKey crypto.Signer `json:"-"`
	// RedirectURI is the redirect URI registered with it, if any.
	RedirectURI string `json:"redirect_uri,omitempty"`
}

// TokenStore keeps Records between runs, one per key (the MCP server's
// URL). Load returns nil, nil when it has none for key. Implementations
// must be safe for concurrent use; the Transport calls them with its own
// lock held, so it never runs two for the same key at once. A Record
// holds secrets (refresh tokens, client secrets): keep it out of logs.
type TokenStore interface {
	Load(ctx context.Context, key string) (*Record, error)
	Save(ctx context.Context, key string, r *Record) error
}

// NewMemoryStore returns a TokenStore that keeps records in memory, for the
// life of the process: the default.
func NewMemoryStore() TokenStore { return &memoryStore{m: map[string]*Record{}} }

type memoryStore struct {
	mu sync.Mutex
	m  map[string]*Record
}

func (s *memoryStore) Load(_ context.Context, key string) (*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return clone(s.m[key]), nil
}

func (s *memoryStore) Save(_ context.Context, key string, r *Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[key] = clone(r)
	return nil
}

// clone copies r deeply enough that the caller's changes do not reach the
// stored copy.
func clone(r *Record) *Record {
	if r == nil {
		return nil
	}
	c := *r
	if r.Client != nil {
		reg := *r.Client
		c.Client = &reg
	}
	if r.Token != nil {
		c.Token = &oauth2.Token{AccessToken: r.Token.AccessToken, TokenType: r.Token.TokenType, RefreshToken: r.Token.RefreshToken, Expiry: r.Token.Expiry}
	}
	c.Scopes = append([]string(nil), r.Scopes...)
	return &c
}

// NewFileStore returns a TokenStore that keeps records in a JSON file at
// path ("~/" is the user's home directory), created with mode 0600 (its
// directory 0700) and replaced atomically on every save, so a crash never
// leaves it half written. Several processes sharing one file may each
// overwrite the other's latest change; give each its own file.
func NewFileStore(path string) TokenStore { return &fileStore{path: path} }

type fileStore struct {
	mu   sync.Mutex
	path string
}

func (s *fileStore) file() (string, error) {
	if rest, ok := strings.CutPrefix(s.path, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("oauthclient: token file %s: %w", s.path, err)
		}
		return filepath.Join(home, rest), nil
	}
	return s.path, nil
}

func (s *fileStore) read() (map[string]*Record, string, error) {
	path, err := s.file()
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]*Record{}, path, nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("oauthclient: reading token file: %w", err)
	}
	m := map[string]*Record{}
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, "", fmt.Errorf("oauthclient: token file %s: %w", path, err)
	}
	return m, path, nil
}

func (s *fileStore) Load(_ context.Context, key string) (*Record, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, _, err := s.read()
	if err != nil {
		return nil, err
	}
	return m[key], nil
}

func (s *fileStore) Save(_ context.Context, key string, r *Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, path, err := s.read()
	if err != nil {
		return err
	}
	m[key] = r
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("oauthclient: encoding token file: %w", err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("oauthclient: token file directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tokens-*")
	if err != nil {
		return fmt.Errorf("oauthclient: writing token file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename there is nothing to remove
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("oauthclient: writing token file: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("oauthclient: writing token file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("oauthclient: writing token file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("oauthclient: writing token file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("oauthclient: replacing token file: %w", err)
	}
	return nil
}
