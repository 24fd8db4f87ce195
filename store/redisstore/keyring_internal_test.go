package redisstore

import (
	"strings"
	"testing"
)

// FuzzParseRing: whatever the ring's hash holds, parseRing returns keys
// with a 32-byte secret in id order, or an error; it never panics.
func FuzzParseRing(f *testing.F) {
	f.Add(int64(1700000000000), "lz7y3k2o", "1700000000000:"+strings.Repeat("k", 32), "lz7y3k2p", "1700000060000:"+strings.Repeat("j", 32))
	f.Add(int64(0), "", "", "zz", "1:short")
	f.Add(int64(-1), "!", ":", "-1", "x:y")
	f.Fuzz(func(t *testing.T, now int64, id1, v1, id2, v2 string) {
		keys, _, err := parseRing([]any{now, id1, v1, id2, v2})
		if err != nil {
			return
		}
		for i, k := range keys {
			if len(k.secret) != secretSize {
				t.Fatalf("key %q has a %d-byte secret", k.id, len(k.secret))
			}
			if i > 0 && keys[i-1].n > k.n {
				t.Fatalf("keys out of order: %q before %q", keys[i-1].id, k.id)
			}
		}
	})
}
