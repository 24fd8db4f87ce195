package oauthclient_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/fastmcp-go/fastmcp/oauthclient"
)

func TestParseChallenges(t *testing.T) {
	tests := []struct {
		header []string
		want   []oauthclient.Challenge
	}{
		{[]string{`Bearer`}, []oauthclient.Challenge{{Scheme: "Bearer", Params: map[string]string{}}}},
		{
			[]string{`Bearer error="invalid_token", error_description="Missing Authorization header", resource_metadata="http://localhost:1/.well-known/oauth-protected-resource/mcp"`},
			[]oauthclient.Challenge{{Scheme: "Bearer", Params: map[string]string{
				"error": "invalid_token", "error_description": "Missing Authorization header",
				"resource_metadata": "http://localhost:1/.well-known/oauth-protected-resource/mcp",
			}}},
		},
		{
			[]string{`Bearer scope="mcp:basic mcp:write", Resource_Metadata="u", error=insufficient_scope`},
			[]oauthclient.Challenge{{Scheme: "Bearer", Params: map[string]string{"scope": "mcp:basic mcp:write", "resource_metadata": "u", "error": "insufficient_scope"}}},
		},
		{
			[]string{`Basic realm="a \"quoted\" realm", DPoP algs="ES256 RS256", error="use_dpop_nonce"`},
			[]oauthclient.Challenge{
				{Scheme: "Basic", Params: map[string]string{"realm": `a "quoted" realm`}},
				{Scheme: "DPoP", Params: map[string]string{"algs": "ES256 RS256", "error": "use_dpop_nonce"}},
			},
		},
		{
			[]string{`Negotiate abc==`, `Bearer realm="x"`},
			[]oauthclient.Challenge{
				{Scheme: "Negotiate", Params: map[string]string{}},
				{Scheme: "Bearer", Params: map[string]string{"realm": "x"}},
			},
		},
		{[]string{`Bearer realm="unterminated`}, []oauthclient.Challenge{{Scheme: "Bearer", Params: map[string]string{"realm": "unterminated"}}}},
		{[]string{``, ` , `}, nil},
	}
	for _, tt := range tests {
		h := http.Header{"Www-Authenticate": tt.header}
		if got := oauthclient.ParseChallenges(h); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseChallenges(%q)\n got %#v\nwant %#v", tt.header, got, tt.want)
		}
	}
	c := oauthclient.ParseChallenges(http.Header{"Www-Authenticate": {`Bearer scope="a b", resource_metadata="m", error="insufficient_scope"`}})[0]
	if c.Error() != "insufficient_scope" || !reflect.DeepEqual(c.Scopes(), []string{"a", "b"}) || c.ResourceMetadata() != "m" {
		t.Errorf("accessors of %#v", c)
	}
}

func FuzzParseChallenges(f *testing.F) {
	for _, s := range []string{
		`Bearer error="invalid_token", resource_metadata="http://x/y"`,
		`Basic realm="a\"b", DPoP algs="ES256"`,
		`Negotiate abc==, Bearer`,
		`Bearer realm="`,
		`,,,=`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range oauthclient.ParseChallenges(http.Header{"Www-Authenticate": {s}}) {
			if c.Scheme == "" || c.Params == nil {
				t.Fatalf("challenge %#v from %q", c, s)
			}
		}
	})
}
