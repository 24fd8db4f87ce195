package redisstore

import "testing"

// FuzzDecodeEvent: decodeEvent takes back what encodeEvent packed, and
// never panics on what else a log might hold.
func FuzzDecodeEvent(f *testing.F) {
	f.Add("1", int64(1), []byte(`{"jsonrpc":"2.0"}`), "3:abc12:x")
	f.Add("3:a_b:", int64(0), []byte(":\n"), "")
	f.Add("", int64(-5), []byte{}, "99:x1:")
	f.Fuzz(func(t *testing.T, stream string, seq int64, data []byte, raw string) {
		st, sq, d, err := decodeEvent(encodeEvent(stream, seq, data))
		if err != nil || st != stream || sq != seq || d != string(data) {
			t.Errorf("round trip of (%q, %d, %q) = (%q, %d, %q), %v", stream, seq, data, st, sq, d, err)
		}
		_, _, _, _ = decodeEvent(raw)
	})
}
