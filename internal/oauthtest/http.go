package oauthtest

import (
	"crypto"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

const cryptoSHA256 = crypto.SHA256

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers an OAuth error response (RFC 6749 §5.2, RFC 7591
// §3.2.2).
func writeError(w http.ResponseWriter, status int, code, description string) {
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="oauthtest"`)
	}
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}

func splitScopes(s string) []string { return strings.Fields(s) }

func joinScopes(s []string) string { return strings.Join(s, " ") }

// subset reports whether every element of a is in b.
func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
