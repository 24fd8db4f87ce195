package oauthserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ory/fosite"

	"github.com/fastmcp-go/fastmcp/store"
)

// client is a registered client as fosite sees it, with what the consent
// page shows.
type client struct {
	fosite.DefaultClient
	Name    string
	Trusted bool
}

// clientRecord is a dynamically registered client as kept in the store.
type clientRecord struct {
	ID           string   `json:"client_id"`
	SecretHash   []byte   `json:"secret_sha256,omitempty"`
	RedirectURIs []string `json:"redirect_uris"`
	Name         string   `json:"client_name,omitempty"`
	IssuedAt     int64    `json:"client_id_issued_at"`
}

// keyClient prefixes a dynamically registered client's ID.
const keyClient = "oauthserver:client:"

// clients finds clients: pre-registered ones, then registered ones in the
// store.
type clients struct {
	cfg    *Config
	kv     store.KV
	static map[string]*client
	cimd   *cimdCache // nil: client ID metadata documents off
}

func newClients(cfg *Config, kv store.KV) *clients {
	c := &clients{cfg: cfg, kv: kv, static: map[string]*client{}}
	for _, cl := range cfg.Clients {
		var hash []byte
		if cl.Secret != "" {
			h := sha256.Sum256([]byte(cl.Secret))
			hash = h[:]
		}
		name := cl.Name
		if name == "" {
			name = cl.ID
		}
		c.static[cl.ID] = c.client(cl.ID, hash, cl.RedirectURIs, name, cl.Trusted)
	}
	if !cfg.NoClientIDMetadata {
		c.cimd = newCIMDCache(cfg.HTTPClient, cfg.now)
	}
	return c
}

// client builds a fosite client.
func (c *clients) client(id string, secretHash []byte, redirects []string, name string, trusted bool) *client {
	grants := fosite.Arguments{"authorization_code"}
	if c.cfg.RefreshTokenTTL > 0 {
		grants = append(grants, "refresh_token")
	}
	return &client{
		DefaultClient: fosite.DefaultClient{
			ID: id, Secret: secretHash, RedirectURIs: redirects,
			GrantTypes: grants, ResponseTypes: fosite.Arguments{"code"},
			Scopes: c.cfg.Scopes, Audience: c.cfg.Resources, Public: secretHash == nil,
		},
		Name: name, Trusted: trusted,
	}
}

// GetClient returns the client id, or fosite.ErrNotFound.
func (c *clients) GetClient(ctx context.Context, id string) (fosite.Client, error) {
	return c.get(ctx, id)
}

func (c *clients) get(ctx context.Context, id string) (*client, error) {
	if cl, ok := c.static[id]; ok {
		return cl, nil
	}
	if c.cimd != nil && isClientIDURL(id) {
		reg, err := c.cimd.get(ctx, id)
		if err != nil {
			c.cfg.Logger.Info("oauthserver: refused a client ID metadata document", "client_id", id, "error", err)
			return nil, fmt.Errorf("%w: client %q: %w", fosite.ErrNotFound, id, err)
		}
		name := reg.ClientName
		if name == "" {
			name = id
		}
		return c.client(id, nil, reg.RedirectURIs, name, false), nil
	}
	b, err := c.kv.Get(ctx, keyClient+id)
	if errors.Is(err, store.ErrKeyNotFound) {
		return nil, fmt.Errorf("%w: no client %q", fosite.ErrNotFound, id)
	} else if err != nil {
		return nil, err
	}
	var rec clientRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("oauthserver: decoding client %q: %w", id, err)
	}
	name := rec.Name
	if name == "" {
		name = id
	}
	return c.client(rec.ID, rec.SecretHash, rec.RedirectURIs, name, false), nil
}

// secretHasher compares client secrets by their SHA-256: the secrets are
// random (the server's own, or at least 32 characters for pre-registered
// clients), so a slow hash would add nothing but latency.
type secretHasher struct{}

func (secretHasher) Compare(_ context.Context, hash, data []byte) error {
	h := sha256.Sum256(data)
	if subtle.ConstantTimeCompare(hash, h[:]) != 1 {
		return errors.New("oauthserver: wrong client secret")
	}
	return nil
}

func (secretHasher) Hash(_ context.Context, data []byte) ([]byte, error) {
	h := sha256.Sum256(data)
	return h[:], nil
}
