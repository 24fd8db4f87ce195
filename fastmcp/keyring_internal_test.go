package fastmcp

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

func testKey(id string, b byte) Key { return Key{ID: id, Secret: bytes.Repeat([]byte{b}, 32)} }

// TestKeyRingRotation: a state opens on every ring that still holds the
// key that sealed it, whichever key is current there, and is refused,
// naming the key, by a ring that dropped it.
func TestKeyRingRotation(t *testing.T) {
	a, b := testKey("a", 1), testKey("b", 2)
	sealWith := func(ring store.KeyRing) string {
		t.Helper()
		state, err := newStateSealer(ring, nil, time.Minute).seal(&sealedState{Binding: "bind", Principal: "p"})
		if err != nil {
			t.Fatal(err)
		}
		return state
	}
	tests := []struct {
		name    string
		sealer  store.KeyRing
		opener  store.KeyRing
		wantErr string // "" opens
	}{
		{"same ring", StaticKeys(a), StaticKeys(a), ""},
		{"opener rotated, old key kept", StaticKeys(a), StaticKeys(b, a), ""},
		{"sealer rotated first", StaticKeys(b, a), StaticKeys(a, b), ""},
		{"old key dropped", StaticKeys(a), StaticKeys(b), `sealed with key "a", which this server does not hold`},
		{"same id, another secret", StaticKeys(a), StaticKeys(testKey("a", 9)), "not issued by this server or was modified"},
		{"from a RequestStateSecret server", newSecretRing(a.Secret, time.Minute, time.Hour), StaticKeys(a), "which this server does not hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := sealWith(tt.sealer)
			st, err := newStateSealer(tt.opener, nil, time.Minute).open(state, "bind", "p")
			if tt.wantErr == "" {
				if err != nil || st.Binding != "bind" {
					t.Fatalf("open: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidRequestState) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("open: %v, want ErrInvalidRequestState saying %q", err, tt.wantErr)
			}
		})
	}
}

// TestRequestStateTampering: changing any byte of a sealed state, or
// cutting it, makes it invalid.
func TestRequestStateTampering(t *testing.T) {
	s := newStateSealer(StaticKeys(testKey("k1", 1), testKey("k2", 2)), nil, time.Minute)
	state, err := s.seal(&sealedState{Binding: "bind"})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(state)
	if raw[0] != 2 || string(raw[1:3]) != "k1" {
		t.Fatalf("state starts %q, want the key id length and id", raw[:3])
	}
	for i := range raw {
		for _, flip := range []byte{0x01, 0x80} {
			bad := bytes.Clone(raw)
			bad[i] ^= flip
			if _, err := s.open(base64.RawURLEncoding.EncodeToString(bad), "bind", ""); !errors.Is(err, ErrInvalidRequestState) {
				t.Fatalf("byte %d ^ %#x: open = %v, want ErrInvalidRequestState", i, flip, err)
			}
		}
	}
	// The id renamed to the other key the ring holds: the tag fails.
	bad := bytes.Clone(raw)
	bad[2] = '2'
	if _, err := s.open(base64.RawURLEncoding.EncodeToString(bad), "bind", ""); err == nil || !strings.Contains(err.Error(), "modified") {
		t.Fatalf("state moved to another key: %v", err)
	}
	for n := range len(raw) {
		if _, err := s.open(base64.RawURLEncoding.EncodeToString(raw[:n]), "bind", ""); !errors.Is(err, ErrInvalidRequestState) {
			t.Fatalf("state cut to %d bytes: open = %v", n, err)
		}
	}
	if _, err := s.open("not base64!", "bind", ""); !errors.Is(err, ErrInvalidRequestState) {
		t.Fatalf("not base64: %v", err)
	}
}

// TestSecretRing: the hourly keys of RequestStateSecret open a state for
// as long as its TTL, across hours, and not once the hour it was sealed in
// is past the TTL.
func TestSecretRing(t *testing.T) {
	t0 := time.Date(2026, 7, 28, 10, 59, 0, 0, time.UTC)
	for _, ttl := range []time.Duration{10 * time.Minute, 3 * time.Hour} {
		ring := newSecretRing([]byte("0123456789abcdef0123456789abcdef"), ttl, time.Hour)
		s := newStateSealer(ring, nil, ttl)
		ring.now, s.now = func() time.Time { return t0 }, func() time.Time { return t0 }
		id, _ := ring.Current()
		state, err := s.seal(&sealedState{Binding: "b"})
		if err != nil {
			t.Fatal(err)
		}
		late := t0.Add(ttl - time.Second)
		ring.now, s.now = func() time.Time { return late }, func() time.Time { return late }
		if id2, _ := ring.Current(); id2 == id {
			t.Fatalf("ttl %v: the key did not rotate from %s by %v", ttl, id, late)
		}
		if _, err := s.open(state, "b", ""); err != nil {
			t.Fatalf("ttl %v: open just before the TTL, keys rotated: %v", ttl, err)
		}
		gone := t0.Add(ttl + 2*time.Hour)
		ring.now = func() time.Time { return gone }
		if _, ok := ring.Lookup(id); ok {
			t.Fatalf("ttl %v: key %s still held at %v", ttl, id, gone)
		}
	}
	ring := newSecretRing([]byte("0123456789abcdef0123456789abcdef"), time.Minute, time.Hour)
	for _, id := range []string{"", "h", "x1", "h-", "h99999999999999999999"} {
		if _, ok := ring.Lookup(id); ok {
			t.Errorf("Lookup(%q) found a key", id)
		}
	}
}

// TestStaticKeysMistakes: a ring given wrong keys panics saying what to fix.
func TestStaticKeysMistakes(t *testing.T) {
	tests := []struct {
		name string
		keys []Key
		want string
	}{
		{"none", nil, "no key given"},
		{"empty id", []Key{testKey("", 1)}, "the id is empty"},
		{"long id", []Key{testKey(strings.Repeat("x", store.MaxKeyIDLen+1), 1)}, "keep it to 32"},
		{"short secret", []Key{{ID: "a", Secret: []byte("short")}}, "at least 16"},
		{"duplicate", []Key{testKey("a", 1), testKey("a", 2)}, `"a" given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tt.want) {
					t.Fatalf("panic %v, want one saying %q", r, tt.want)
				}
			}()
			StaticKeys(tt.keys...)
		})
	}
}

// badRing hands out a key the sealer must refuse.
type badRing struct{}

func (badRing) Current() (string, []byte)    { return "k", []byte("short") }
func (badRing) Lookup(string) ([]byte, bool) { return nil, false }

func TestSealRefusesBadCurrentKey(t *testing.T) {
	_, err := newStateSealer(badRing{}, nil, time.Minute).seal(&sealedState{})
	if err == nil || !strings.Contains(err.Error(), "current key") {
		t.Fatalf("seal with a 5-byte secret: %v", err)
	}
}

// TestRequestStateOptionsOrder: the later of RequestStateKeys and
// RequestStateSecret wins.
func TestRequestStateOptionsOrder(t *testing.T) {
	ring := StaticKeys(testKey("a", 1))
	if s := New("x", "1", RequestStateSecret([]byte("0123456789abcdef")), RequestStateKeys(ring)); s.sealer.ring != ring {
		t.Error("RequestStateKeys after RequestStateSecret: not the ring")
	}
	if s := New("x", "1", RequestStateKeys(ring), RequestStateSecret([]byte("0123456789abcdef"))); s.sealer.ring == ring {
		t.Error("RequestStateSecret after RequestStateKeys: still the ring")
	}
}

// FuzzOpenRequestState: open never panics, and what it opens is a state
// this sealer sealed (the fuzzer's workers each seal their own seed, so
// the seed corpus carries one that opens).
func FuzzOpenRequestState(f *testing.F) {
	s := newStateSealer(StaticKeys(testKey("k", 1)), nil, time.Minute)
	state, _ := s.seal(&sealedState{Binding: "b", Principal: "fuzz"})
	f.Add(state)
	f.Add("")
	f.Add("AA")
	f.Fuzz(func(t *testing.T, in string) {
		st, err := s.open(in, "b", "fuzz")
		if err == nil && (st.Binding != "b" || st.Principal != "fuzz") {
			t.Fatalf("opened %q into %+v", in, st)
		}
		if err != nil && !errors.Is(err, ErrInvalidRequestState) {
			t.Fatalf("open: %v, want ErrInvalidRequestState", err)
		}
	})
}
