package authinfo

import (
	"net/http/httptest"
	"testing"
)

func TestChallengeString(t *testing.T) {
	c := Challenge{Scheme: "DPoP", Error: "invalid_token", Description: `say "hi" \ bye`, Scopes: []string{"a", "b"}, ResourceMetadata: "https://m/x", Algs: []string{"ES256", "EdDSA"}}
	want := `DPoP error="invalid_token", error_description="say \"hi\" \\ bye", scope="a b", resource_metadata="https://m/x", algs="ES256 EdDSA"`
	if got := c.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := (Challenge{}).String(); got != "Bearer" {
		t.Errorf("empty challenge: %q", got)
	}
}

// TestWriteInsufficientScope: the 403 names the base scopes and metadata
// URL the middleware recorded, then the operation's scopes (each once);
// a DPoP-bound token gets the DPoP scheme and the recorded algs.
func TestWriteInsufficientScope(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ctx      *Challenge
		info     *TokenInfo
		metadata string
		want     string
	}{
		{"nothing recorded", nil, nil, "", `Bearer error="insufficient_scope", scope="w"`},
		{"explicit URL", nil, nil, "https://m/x", `Bearer error="insufficient_scope", scope="w", resource_metadata="https://m/x"`},
		{"recorded", &Challenge{Scopes: []string{"base", "w"}, ResourceMetadata: "https://m/ctx", Algs: []string{"ES256"}}, &TokenInfo{Subject: "a"}, "",
			`Bearer error="insufficient_scope", scope="base w", resource_metadata="https://m/ctx"`},
		{"explicit URL wins", &Challenge{ResourceMetadata: "https://m/ctx"}, nil, "https://m/x", `Bearer error="insufficient_scope", scope="w", resource_metadata="https://m/x"`},
		{"dpop", &Challenge{Scopes: []string{"base"}, ResourceMetadata: "https://m/ctx", Algs: []string{"ES256"}}, &TokenInfo{Subject: "a", ConfirmationJKT: "k"}, "",
			`DPoP error="insufficient_scope", scope="base w", resource_metadata="https://m/ctx", algs="ES256"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/mcp", nil)
			ctx := r.Context()
			if tc.ctx != nil {
				ctx = WithChallenge(ctx, *tc.ctx)
			}
			if tc.info != nil {
				ctx = NewContext(ctx, tc.info)
			}
			w := httptest.NewRecorder()
			WriteInsufficientScope(w, r.WithContext(ctx), tc.metadata, "w")
			if got := w.Header().Get("WWW-Authenticate"); w.Code != 403 || got != tc.want {
				t.Errorf("%d %s\nwant 403 %s", w.Code, got, tc.want)
			}
		})
	}
}
