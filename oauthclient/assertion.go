package oauthclient

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// clientAssertionType is the RFC 7523 §2.2 client assertion type.
const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// signingAlgorithm is the JWS algorithm for key: ES256/384/512 by curve,
// RS256 or EdDSA.
func signingAlgorithm(key crypto.Signer) (jose.SignatureAlgorithm, error) {
	switch k := key.Public().(type) {
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
	case *rsa.PublicKey:
		return jose.RS256, nil
	case ed25519.PublicKey:
		return jose.EdDSA, nil
	}
	return "", fmt.Errorf("oauthclient: unsupported private key type %T", key.Public())
}

// clientAssertion signs the JWT a client authenticates with
// (private_key_jwt, RFC 7523 §3): iss and sub the client ID, aud the
// authorization server's issuer, valid for a minute.
func clientAssertion(reg *Registration, audience string) (string, error) {
	alg, err := signingAlgorithm(reg.PrivateKey)
	if err != nil {
		return "", err
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: reg.PrivateKey}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", fmt.Errorf("oauthclient: client assertion: %w", err)
	}
	now := time.Now()
	claims := jwt.Claims{
		Issuer:    reg.ClientID,
		Subject:   reg.ClientID,
		Audience:  jwt.Audience{audience},
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now.Add(-5 * time.Second)),
		Expiry:    jwt.NewNumericDate(now.Add(time.Minute)),
		ID:        randomString(),
	}
	s, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		return "", fmt.Errorf("oauthclient: client assertion: %w", err)
	}
	return s, nil
}
