package oauthserver

import (
	"crypto"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/ory/fosite"
)

// dpopAlgs are the DPoP proof algorithms accepted
// (dpop_signing_alg_values_supported).
var dpopAlgs = []string{"ES256"}

// dpopWindow is how old a proof's iat may be, and dpopSkew how far in the
// future; a proof's jti is remembered (in the store, so a replay at
// another replica is refused too) for both.
const (
	dpopWindow = 5 * time.Minute
	dpopSkew   = time.Minute
	keyDPoPJTI = "oauthserver:dpop-jti:"
)

// errDPoP is RFC 9449's error.
var errDPoP = &fosite.RFC6749Error{
	ErrorField: "invalid_dpop_proof", DescriptionField: "The DPoP proof is invalid.", CodeField: http.StatusBadRequest,
}

// checkDPoP checks the DPoP proof of a token request (RFC 9449 §4.3), if
// any, and returns its key's thumbprint, which the tokens are bound to.
func (s *Server) checkDPoP(r *http.Request) (string, error) {
	proofs := r.Header.Values("DPoP")
	if len(proofs) == 0 {
		return "", nil
	}
	if s.cfg.NoDPoP {
		return "", errDPoP.WithHint("This server does not accept DPoP proofs.")
	}
	if len(proofs) > 1 {
		return "", errDPoP.WithHint("One DPoP header, please.")
	}
	jkt, jti, err := s.verifyProof(proofs[0], r.Method)
	if err != nil {
		return "", errDPoP.WithHint(err.Error())
	}
	sum := sha256.Sum256([]byte(jkt + "\x00" + jti))
	added, err := s.kv.Add(r.Context(), keyDPoPJTI+b64(sum[:]), []byte("1"), dpopWindow+2*dpopSkew)
	if err != nil {
		return "", fosite.ErrServerError.WithWrap(err)
	}
	if !added {
		return "", errDPoP.WithHint("This proof was used before: send a fresh one (a new jti).")
	}
	return jkt, nil
}

// verifyProof checks a proof's header, signature and claims for a token
// request, and returns its key's thumbprint and its jti.
func (s *Server) verifyProof(proof, method string) (jkt, jti string, err error) {
	jws, err := jose.ParseSignedCompact(proof, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		return "", "", fmt.Errorf("not a JWS signed with ES256: %w", err)
	}
	hdr := jws.Signatures[0].Header
	if typ, _ := hdr.ExtraHeaders[jose.HeaderType].(string); typ != "dpop+jwt" {
		return "", "", errors.New("typ must be dpop+jwt")
	}
	key := hdr.JSONWebKey
	if key == nil || !key.IsPublic() || !key.Valid() {
		return "", "", errors.New("the header needs the public jwk")
	}
	payload, err := jws.Verify(key)
	if err != nil {
		return "", "", errors.New("bad signature")
	}
	var c struct {
		JTI string   `json:"jti"`
		HTM string   `json:"htm"`
		HTU string   `json:"htu"`
		IAT *float64 `json:"iat"`
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return "", "", errors.New("the claims are not a JSON object")
	}
	now := s.cfg.now()
	switch {
	case c.JTI == "" || len(c.JTI) > 256:
		return "", "", errors.New("jti is required (at most 256 characters)")
	case c.HTM != method:
		return "", "", fmt.Errorf("htm must be %s", method)
	case !sameURL(c.HTU, s.cfg.Issuer+pathToken):
		return "", "", fmt.Errorf("htu must be %s", s.cfg.Issuer+pathToken)
	case c.IAT == nil:
		return "", "", errors.New("iat is required")
	}
	if iat := time.Unix(int64(*c.IAT), 0); iat.Before(now.Add(-dpopWindow-dpopSkew)) || iat.After(now.Add(dpopSkew)) {
		return "", "", errors.New("iat is too old or in the future")
	}
	tp, err := key.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", "", err
	}
	return base64.RawURLEncoding.EncodeToString(tp), c.JTI, nil
}

// sameURL compares an htu with want, without query and fragment, the
// scheme and host in any case (RFC 9449 §4.3).
func sameURL(htu, want string) bool {
	a, err := url.Parse(htu)
	if err != nil {
		return false
	}
	b, err := url.Parse(want)
	if err != nil {
		return false
	}
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host) && a.EscapedPath() == b.EscapedPath()
}
