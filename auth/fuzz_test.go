package auth

import (
	"net/http"
	"strings"
	"testing"
)

// FuzzParseAuthorization: the parser never panics; what it accepts is a
// lowercase token scheme and token68 credentials that parse back the same.
func FuzzParseAuthorization(f *testing.F) {
	for _, s := range []string{"Bearer abc", "bearer   a.b.c", "DPoP x==", "Basic", "Bearer", "Bearer a b", " Bearer x ", "Bearer =", "Bearer a=b", "\x00", "Bearer ä"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		scheme, creds, err := parseAuthorization(http.Header{"Authorization": {v}})
		if err != nil {
			return
		}
		if scheme != strings.ToLower(scheme) || !isToken(scheme) || !isToken68(creds) {
			t.Fatalf("%q: accepted scheme %q credentials %q", v, scheme, creds)
		}
		s2, c2, err := parseAuthorization(http.Header{"Authorization": {scheme + " " + creds}})
		if err != nil || s2 != scheme || c2 != creds {
			t.Fatalf("%q: round trip gave %q %q %v", v, s2, c2, err)
		}
	})
}
