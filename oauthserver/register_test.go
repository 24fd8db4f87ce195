package oauthserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// registerClient posts a registration request.
func registerClient(t *testing.T, as *testAS, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(as.URL+"/register", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("registration answer %d %s: %v", resp.StatusCode, b, err)
	}
	return resp.StatusCode, m
}

// TestRegistration: a registered public client gets through the flow; a
// redirect URI on a plain http host, a script or data URI, a relative one
// are refused.
func TestRegistration(t *testing.T) {
	as := startAS(t, Config{})
	status, m := registerClient(t, as, `{"redirect_uris":["`+callbackURI+`"],"client_name":"Reg App","token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"]}`)
	if status != http.StatusCreated || m["client_id"] == "" || m["client_secret"] != nil {
		t.Fatalf("registration: %d %v", status, m)
	}
	id := m["client_id"].(string)
	p := newPKCE()
	if tr := as.redeem(t, id, as.code(t, id, p), p); tr.Status != http.StatusOK {
		t.Errorf("token of a registered client: %+v", tr)
	}
	for _, bad := range []string{"http://evil.example/cb", "javascript:alert(1)", "data:text/html,hi", "/relative"} {
		status, m = registerClient(t, as, `{"redirect_uris":["`+bad+`"]}`)
		if status != http.StatusBadRequest || m["error"] != "invalid_redirect_uri" {
			t.Errorf("redirect URI %s: %d %v, want invalid_redirect_uri", bad, status, m)
		}
	}
}
