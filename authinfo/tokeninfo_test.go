package authinfo

import (
	"context"
	"testing"
)

func TestTokenInfo(t *testing.T) {
	a := &TokenInfo{Issuer: "https://idp", Subject: "alice", ClientID: "app", Scopes: []string{"a", "b"}}
	if !a.HasScopes("a", "b") || a.HasScopes("a", "c") || !a.HasScopes() {
		t.Error("HasScopes")
	}
	if got := a.MissingScopes("c", "a", "d"); len(got) != 2 || got[0] != "c" || got[1] != "d" {
		t.Errorf("MissingScopes = %v", got)
	}
	same := &TokenInfo{Issuer: "https://idp", Subject: "alice", ClientID: "app", Scopes: []string{"x"}}
	if a.Principal() != same.Principal() {
		t.Error("the same user and client through another token has another principal")
	}
	for _, other := range []*TokenInfo{
		{Issuer: "https://idp", Subject: "bob", ClientID: "app"},
		{Issuer: "https://idp", Subject: "alice", ClientID: "other"},
		{Issuer: "https://idp2", Subject: "alice", ClientID: "app"},
		{Issuer: "https://idp", Subject: "aliceapp", ClientID: ""},
	} {
		if other.Principal() == a.Principal() {
			t.Errorf("%+v has alice's principal", other)
		}
	}
	if FromContext(context.Background()) != nil {
		t.Error("FromContext of an empty context")
	}
	ctx := NewContext(context.Background(), a)
	if FromContext(ctx) != a {
		t.Error("FromContext")
	}
}
