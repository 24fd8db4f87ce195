package oauthproxy

import (
	"github.com/fastmcp-go/fastmcp/oauthserver"
	"github.com/fastmcp-go/fastmcp/store"
)

// New returns an authorization server (oauthserver.New with as) whose
// Login is the upstream of cfg, and that Login, for UpstreamToken. cfg's
// Issuer, Store and Logger default to as's, and as's Store to cfg's, so
// that both keep their state in one place.
func New(cfg Config, as oauthserver.Config) (*oauthserver.Server, *Login, error) {
	if cfg.Issuer == "" {
		cfg.Issuer = as.Issuer
	}
	if cfg.Logger == nil {
		cfg.Logger = as.Logger
	}
	switch {
	case cfg.Store == nil && as.Store == nil:
		cfg.Store = store.NewMemoryKV()
		as.Store = cfg.Store
	case cfg.Store == nil:
		cfg.Store = as.Store
	case as.Store == nil:
		as.Store = cfg.Store
	}
	login, err := NewLogin(cfg)
	if err != nil {
		return nil, nil, err
	}
	as.Login = login
	srv, err := oauthserver.New(as)
	if err != nil {
		return nil, nil, err
	}
	return srv, login, nil
}
