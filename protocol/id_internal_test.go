package protocol

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// FuzzPlainID checks that the decoder-free check of ParseID only accepts
// valid ids.
func FuzzPlainID(f *testing.F) {
	for _, s := range []string{`1`, `-1`, `0`, `-0`, `01`, `-`, `""`, `"a b"`, `"\u0041"`, `"é"`, `"a"b"`, `"`, `1.5`, `1e3`, "\"\x01\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := jsontext.Value(s)
		if plainID([]byte(s)) && (!v.IsValid() || (v.Kind() != '"' && v.Kind() != '0')) {
			t.Fatalf("plainID(%q) but it is not a valid id", s)
		}
	})
}
