package auth

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestWriteInsufficientScopeFor checks the step-up answer of a handler
// behind RequireBearerToken, end to end: a Bearer challenge for a bearer
// token, a DPoP challenge naming the accepted algorithms for a DPoP-bound
// token presented with its proof, and a Bearer one for a request that
// never passed the middleware; the metadata URL is the one given, else
// the middleware's.
func TestWriteInsufficientScopeFor(t *testing.T) {
	is := newTestIssuer(t)
	is.addKey("k", "ES256")
	v, err := NewJWTVerifier(JWTOptions{Issuer: is.srv.URL, Audience: testResource, HTTPClient: is.srv.Client(), Algorithms: []string{"ES256"}})
	if err != nil {
		t.Fatal(err)
	}
	stepUp := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		WriteInsufficientScopeFor(w, r, r.URL.Query().Get("metadata"), "files:read", "files:write")
	})
	mw := RequireBearerToken(v, &BearerOptions{ResourceMetadataURL: testMetadata, DPoP: &DPoPOptions{Algorithms: []string{"ES256"}}})
	protected := httptest.NewServer(mw(stepUp))
	t.Cleanup(protected.Close)
	bare := httptest.NewServer(stepUp)
	t.Cleanup(bare.Close)

	client := newDPoPClient(t)
	bound := is.sign("k", "at+jwt", is.claims(testResource, map[string]any{"cnf": map[string]any{"jkt": client.jkt}}))
	unbound := is.sign("k", "at+jwt", is.claims(testResource, nil))
	const params = `error="insufficient_scope", scope="files:read files:write", resource_metadata="` + testMetadata + `"`
	for _, tc := range []struct {
		name   string
		url    string
		header http.Header
		want   string
	}{
		{"bearer", protected.URL, bearerHeader(unbound), `Bearer ` + params},
		{"dpop", protected.URL, http.Header{"Authorization": {"DPoP " + bound}, "Dpop": {client.proof("POST", protected.URL, bound, "dpop+jwt", nil)}}, `DPoP ` + params + `, algs="ES256"`},
		{"metadata given", protected.URL + "?metadata=https://m/x", bearerHeader(unbound), `Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://m/x"`},
		{"no middleware", bare.URL + "?metadata=" + testMetadata, http.Header{}, `Bearer ` + params},
		{"nothing known", bare.URL, http.Header{}, `Bearer error="insufficient_scope", scope="files:read files:write"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := dpopCall(t, "POST", tc.url, tc.header)
			if want := (dpopAnswer{http.StatusForbidden, tc.want, false}); got != want {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}
