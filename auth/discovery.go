package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/oauthmeta"
)

// maxDocumentBytes bounds the metadata, key set and introspection
// documents read from an authorization server.
const maxDocumentBytes = 1 << 20

var defaultHTTPClient = &http.Client{Timeout: 10 * time.Second}

// serverMetadata is the part of an authorization server's metadata
// (RFC 8414 §2, OpenID Connect Discovery §3) the verifiers use.
type serverMetadata struct {
	Issuer                string `json:"issuer"`
	JWKSURI               string `json:"jwks_uri"`
	IntrospectionEndpoint string `json:"introspection_endpoint"`
}

// discover fetches the metadata of issuer, trying each discovery URL in
// turn. The document's issuer must equal issuer exactly (RFC 8414 §3.3).
// Failures wrap ErrUnavailable.
func discover(ctx context.Context, client *http.Client, issuer string) (*serverMetadata, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, fmt.Errorf("auth: issuer %q: %w", issuer, err)
	}
	var errs []error
	for _, where := range oauthmeta.MetadataURLs(u) {
		var md serverMetadata
		if err := getJSON(ctx, client, where, &md); err != nil {
			errs = append(errs, err)
			continue
		}
		if md.Issuer != issuer {
			errs = append(errs, fmt.Errorf("%s names issuer %q, not %q", where, md.Issuer, issuer))
			continue
		}
		return &md, nil
	}
	return nil, fmt.Errorf("%w: discovering the metadata of %s: %w", ErrUnavailable, issuer, errors.Join(errs...))
}

// getJSON GETs url and decodes its JSON body into v.
func getJSON(ctx context.Context, client *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxDocumentBytes)).Decode(v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}
