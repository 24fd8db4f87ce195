package oauthmeta

import (
	"net/url"
	"slices"
	"testing"
)

func TestMetadataURLs(t *testing.T) {
	for _, tc := range []struct {
		issuer string
		want   []string
	}{
		{"https://as.example.com", []string{"https://as.example.com/.well-known/oauth-authorization-server", "https://as.example.com/.well-known/openid-configuration"}},
		{"https://as.example.com/", []string{"https://as.example.com/.well-known/oauth-authorization-server", "https://as.example.com/.well-known/openid-configuration"}},
		{"https://as.example.com/tenant/1/", []string{
			"https://as.example.com/.well-known/oauth-authorization-server/tenant/1",
			"https://as.example.com/.well-known/openid-configuration/tenant/1",
			"https://as.example.com/tenant/1/.well-known/openid-configuration",
		}},
		{"http://127.0.0.1:8080/a%2Fb", []string{
			"http://127.0.0.1:8080/.well-known/oauth-authorization-server/a%2Fb",
			"http://127.0.0.1:8080/.well-known/openid-configuration/a%2Fb",
			"http://127.0.0.1:8080/a%2Fb/.well-known/openid-configuration",
		}},
	} {
		u, err := url.Parse(tc.issuer)
		if err != nil {
			t.Fatal(err)
		}
		if got := MetadataURLs(u); !slices.Equal(got, tc.want) {
			t.Errorf("MetadataURLs(%s) = %q, want %q", tc.issuer, got, tc.want)
		}
	}
}
