package store_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/store"
)

func testKey(id string, b byte) store.Key {
	return store.Key{ID: id, Secret: bytes.Repeat([]byte{b}, 32)}
}

// TestStaticKeysMistakes: a ring given wrong keys panics saying what to fix.
func TestStaticKeysMistakes(t *testing.T) {
	tests := []struct {
		name string
		keys []store.Key
		want string
	}{
		{"none", nil, "no key given"},
		{"empty id", []store.Key{testKey("", 1)}, "the id is empty"},
		{"long id", []store.Key{testKey(strings.Repeat("x", store.MaxKeyIDLen+1), 1)}, "keep it to 32"},
		{"short secret", []store.Key{{ID: "a", Secret: []byte("short")}}, "at least 16"},
		{"duplicate", []store.Key{testKey("a", 1), testKey("a", 2)}, `"a" given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tt.want) {
					t.Fatalf("panic %v, want one saying %q", r, tt.want)
				}
			}()
			store.StaticKeys(tt.keys...)
		})
	}
}
