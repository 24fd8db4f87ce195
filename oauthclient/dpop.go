package oauthclient

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// dpop holds the client's DPoP key (RFC 9449) and the latest nonce each
// server gave it.
type dpop struct {
	signer jose.Signer

	mu     sync.Mutex
	nonces map[string]string // origin → DPoP-Nonce
}

func newDPoP() (*dpop, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("oauthclient: DPoP key: %w", err)
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, (&jose.SignerOptions{EmbedJWK: true}).WithType("dpop+jwt"))
	if err != nil {
		return nil, fmt.Errorf("oauthclient: DPoP key: %w", err)
	}
	return &dpop{signer: signer, nonces: map[string]string{}}, nil
}

// proofClaims are the claims of a DPoP proof (RFC 9449 §4.2).
type proofClaims struct {
	JTI   string `json:"jti"`
	HTM   string `json:"htm"`
	HTU   string `json:"htu"`
	IAT   int64  `json:"iat"`
	ATH   string `json:"ath,omitempty"`
	Nonce string `json:"nonce,omitempty"`
}

// proof signs a fresh proof for a request of method to u, bound to
// accessToken when it is not empty, with the server's latest nonce.
func (d *dpop) proof(method string, u *url.URL, accessToken string) (string, error) {
	c := proofClaims{JTI: randomString(), HTM: method, HTU: u.Scheme + "://" + u.Host + u.EscapedPath(), IAT: time.Now().Unix()}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		c.ATH = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	d.mu.Lock()
	c.Nonce = d.nonces[u.Scheme+"://"+u.Host]
	d.mu.Unlock()
	s, err := jwt.Signed(d.signer).Claims(c).Serialize()
	if err != nil {
		return "", fmt.Errorf("oauthclient: DPoP proof: %w", err)
	}
	return s, nil
}

// remember keeps the DPoP-Nonce of an answer from u's server, reporting
// whether it is a new one.
func (d *dpop) remember(u *url.URL, h http.Header) bool {
	n := h.Get("DPoP-Nonce")
	if n == "" {
		return false
	}
	origin := u.Scheme + "://" + u.Host
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.nonces[origin] == n {
		return false
	}
	d.nonces[origin] = n
	return true
}

// dpopSupported reports whether as accepts DPoP proofs signed with ES256.
func (m *serverMetadata) dpopSupported() bool {
	return slices.Contains(m.DPoPSigningAlgValuesSupported, "ES256")
}

// dpopTransport adds a DPoP proof to each token request, and resends one
// that the authorization server refused with use_dpop_nonce with the nonce
// it gave (RFC 9449 §8).
type dpopTransport struct {
	base http.RoundTripper
	d    *dpop
}

func (t *dpopTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	getBody, err := replayable(req)
	if err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		r := req.Clone(req.Context())
		if getBody != nil {
			if r.Body, err = getBody(); err != nil {
				return nil, err
			}
		}
		p, err := t.d.proof(r.Method, r.URL, "")
		if err != nil {
			return nil, err
		}
		r.Header.Set("DPoP", p)
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		fresh := t.d.remember(r.URL, resp.Header)
		if try > 0 || !fresh || resp.StatusCode != http.StatusBadRequest {
			return resp, nil
		}
		// Peek at the error; give the body back if it is another one.
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocument))
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(body, &e) != nil || e.Error != "use_dpop_nonce" {
			resp.Body = io.NopCloser(bytes.NewReader(body))
			return resp, nil
		}
	}
}
