package oauthserver_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyFositeCore: the server links fosite's core, its
// authorization code, refresh, PKCE and token packages, and none of the
// grants and extras it does not use (compose, OpenID Connect, JWT bearer,
// PAR, verifiable credentials).
func TestImportsOnlyFositeCore(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	deps := strings.Fields(string(out))
	for _, want := range []string{"github.com/ory/fosite/handler/oauth2", "github.com/ory/fosite/handler/pkce"} {
		if !strings.Contains(string(out), want+"\n") {
			t.Errorf("%s is not linked", want)
		}
	}
	for _, d := range deps {
		for _, banned := range []string{"github.com/ory/fosite/compose", "github.com/ory/fosite/handler/openid", "github.com/ory/fosite/handler/rfc7523", "github.com/ory/fosite/handler/par", "github.com/ory/fosite/handler/verifiable"} {
			if d == banned {
				t.Errorf("oauthserver links %s, which it does not use", d)
			}
		}
	}
}
