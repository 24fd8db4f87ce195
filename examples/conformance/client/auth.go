package main

import (
	"context"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// authScenarios are the authorization scenarios the client runs with
// authorized.
var authScenarios = []string{
	"auth/metadata-default",
	"auth/metadata-var1",
	"auth/metadata-var2",
	"auth/metadata-var3",
	"auth/basic-cimd",
	"auth/scope-from-www-authenticate",
	"auth/scope-from-scopes-supported",
	"auth/scope-omitted-when-undefined",
	"auth/scope-step-up",
	"auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic",
	"auth/token-endpoint-auth-post",
	"auth/token-endpoint-auth-none",
	"auth/pre-registration",
	"auth/2025-03-26-oauth-metadata-backcompat",
	"auth/2025-03-26-oauth-endpoint-fallback",
	"auth/resource-mismatch",
	"auth/offline-access-scope",
	"auth/offline-access-not-supported",
	"auth/authorization-server-migration",
	"auth/iss-supported",
	"auth/iss-not-advertised",
	"auth/iss-supported-missing",
	"auth/iss-wrong-issuer",
	"auth/iss-unexpected",
	"auth/iss-normalized",
	"auth/metadata-issuer-mismatch",
	// Extensions.
	"auth/client-credentials-jwt",
	"auth/client-credentials-basic",
	"auth/wif-jwt-bearer",
	"auth/enterprise-managed-authorization",
	"auth/dpop",
	"auth/dpop-nonce",
}

// clientMetadataURL is the client ID metadata document URL the suite
// expects (auth/basic-cimd); its authorization server does not fetch it.
const clientMetadataURL = "https://conformance-test.local/client-metadata.json"

// authContext is the scenario data of MCP_CONFORMANCE_CONTEXT the
// authorization scenarios use.
type authContext struct {
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	// client-credentials-jwt
	PrivateKeyPEM string `json:"private_key_pem"`
	// wif-jwt-bearer
	ValidJWT string `json:"valid_jwt"`
	// enterprise-managed-authorization
	IDPClientID      string `json:"idp_client_id"`
	IDPIDToken       string `json:"idp_id_token"`
	IDPTokenEndpoint string `json:"idp_token_endpoint"`
}

// grant sets what the extension scenarios need: a grant without the user,
// and the credentials of the context.
func (ac *authContext) configure(scenario string, cfg *oauthclient.Config) error {
	switch scenario {
	case "auth/client-credentials-jwt":
		block, _ := pem.Decode([]byte(ac.PrivateKeyPEM))
		if block == nil {
			return errors.New("context: private_key_pem is not PEM")
		}
		key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return fmt.Errorf("context: private_key_pem: %w", err)
		}
		signer, ok := key.(crypto.Signer)
		if !ok {
			return fmt.Errorf("context: private_key_pem holds a %T", key)
		}
		cfg.Client.PrivateKey = signer
		cfg.Grant = oauthclient.ClientCredentials{}
	case "auth/client-credentials-basic":
		cfg.Grant = oauthclient.ClientCredentials{}
	case "auth/wif-jwt-bearer":
		jwt := ac.ValidJWT
		cfg.Grant = oauthclient.JWTBearer{Assertion: func(context.Context) (string, error) { return jwt, nil }}
	case "auth/enterprise-managed-authorization":
		idToken := ac.IDPIDToken
		cfg.Grant = oauthclient.EnterpriseManaged{
			TokenEndpoint: ac.IDPTokenEndpoint,
			IDToken:       func(context.Context) (string, error) { return idToken, nil },
			Client:        &oauthclient.Registration{ClientID: ac.IDPClientID},
		}
	}
	return nil
}

// authorized connects with OAuth, lists the tools and calls test-tool:
// every step of the flow happens on the way, when the server first
// answers 401 (or 403 for more scope).
func authorized(ctx context.Context, r *run) error {
	var ac authContext
	if len(r.context) > 0 {
		if err := json.Unmarshal(r.context, &ac, json.RejectUnknownMembers(false)); err != nil {
			return fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	cfg := oauthclient.Config{
		ClientName:        "fastmcp-conformance-client",
		ClientMetadataURL: clientMetadataURL,
		OpenURL:           r.followAuthorization,
		DPoP:              true, // used where the authorization server supports it
	}
	if ac.ClientID != "" {
		cfg.Client = &oauthclient.Registration{ClientID: ac.ClientID, ClientSecret: ac.ClientSecret}
	}
	if err := ac.configure(r.name, &cfg); err != nil {
		return err
	}
	return r.session(ctx, func(c *client.Client, tools []*client.Tool) error {
		if !slices.ContainsFunc(tools, func(t *client.Tool) bool { return t.Name == "test-tool" }) {
			return nil
		}
		_, err := callTool(ctx, r, c, "test-tool", nil)
		return err
	}, client.OAuth(cfg))
}

// followAuthorization plays the user's browser: it fetches the
// authorization page and follows its redirects, the last of which brings
// the authorization response to the client's loopback redirect URI.
func (r *run) followAuthorization(ctx context.Context, authURL string) error {
	r.logger.Info("authorization page", "url", authURL)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	hc := &http.Client{Timeout: 10 * time.Second}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("following the authorization page: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	r.logger.Info("authorization page followed", "final", resp.Request.URL.Redacted(), "status", resp.StatusCode)
	return nil
}
