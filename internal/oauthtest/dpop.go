package oauthtest

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// dpopAlgs are the proof algorithms the server accepts.
var dpopAlgs = []jose.SignatureAlgorithm{jose.ES256, jose.RS256, jose.PS256, jose.EdDSA}

// dpopBinding checks the DPoP proof of a token request (RFC 9449 §4.3,
// §5) when Options.DPoP is set, and returns the thumbprint of its key
// ("" when the request has no proof, which gets a Bearer token). It
// answers the request itself, and returns ok false, when the proof is
// refused.
func (s *Server) dpopBinding(w http.ResponseWriter, r *http.Request) (jkt string, ok bool) {
	proof := r.Header.Get("DPoP")
	if !s.opts.DPoP || proof == "" {
		return "", true
	}
	claims, jkt, err := CheckDPoPProof(proof, http.MethodPost, s.URL()+"/token", "")
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_dpop_proof", err.Error())
		return "", false
	}
	if n := s.opts.DPoPNonce; n != "" && claims["nonce"] != n {
		w.Header().Set("DPoP-Nonce", n)
		writeError(w, http.StatusBadRequest, "use_dpop_nonce", "the proof must carry the nonce in DPoP-Nonce")
		return "", false
	}
	return jkt, true
}

// CheckDPoPProof verifies a DPoP proof (RFC 9449 §4.3) for a request of
// method to htu, and its ath when accessToken is not empty (a resource
// server's check); it returns the proof's claims and its key's
// thumbprint, which a bound token's cnf.jkt must equal. It does not
// remember jti values: replay is not checked.
func CheckDPoPProof(proof, method, htu, accessToken string) (map[string]any, string, error) {
	jws, err := jose.ParseSignedCompact(proof, dpopAlgs)
	if err != nil {
		return nil, "", fmt.Errorf("proof: %w", err)
	}
	h := jws.Signatures[0].Protected
	if h.ExtraHeaders["typ"] != "dpop+jwt" || h.JSONWebKey == nil || !h.JSONWebKey.IsPublic() {
		return nil, "", errors.New("proof header: want typ dpop+jwt and a public jwk")
	}
	payload, err := jws.Verify(h.JSONWebKey)
	if err != nil {
		return nil, "", fmt.Errorf("proof: %w", err)
	}
	var c map[string]any
	if err := json.Unmarshal(payload, &c); err != nil {
		return nil, "", fmt.Errorf("proof: %w", err)
	}
	iat, _ := c["iat"].(float64)
	if jti, _ := c["jti"].(string); c["htm"] != method || c["htu"] != htu || jti == "" || time.Since(time.Unix(int64(iat), 0)).Abs() > time.Minute {
		return nil, "", fmt.Errorf("proof claims %v: want htm %s, htu %s, a jti and a recent iat", c, method, htu)
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		if c["ath"] != b64(sum[:]) {
			return nil, "", errors.New("proof ath does not match the access token")
		}
	}
	thumb, err := h.JSONWebKey.Thumbprint(cryptoSHA256)
	if err != nil {
		return nil, "", fmt.Errorf("proof: %w", err)
	}
	return c, b64(thumb), nil
}
