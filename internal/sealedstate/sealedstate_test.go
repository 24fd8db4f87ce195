package sealedstate

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

func testKey(id string, b byte) store.Key {
	return store.Key{ID: id, Secret: bytes.Repeat([]byte{b}, 32)}
}

// TestKeyRingRotation: a state opens on every ring that still holds the
// key that sealed it, whichever key is current there, and is refused,
// naming the key, by a ring that dropped it.
func TestKeyRingRotation(t *testing.T) {
	a, b := testKey("a", 1), testKey("b", 2)
	sealWith := func(ring store.KeyRing) string {
		t.Helper()
		state, err := New(ring, nil, time.Minute).Seal(&State{Binding: "bind", Principal: "p"})
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
		{"same ring", store.StaticKeys(a), store.StaticKeys(a), ""},
		{"opener rotated, old key kept", store.StaticKeys(a), store.StaticKeys(b, a), ""},
		{"sealer rotated first", store.StaticKeys(b, a), store.StaticKeys(a, b), ""},
		{"old key dropped", store.StaticKeys(a), store.StaticKeys(b), `sealed with key "a", which this server does not hold`},
		{"same id, another secret", store.StaticKeys(a), store.StaticKeys(testKey("a", 9)), "not issued by this server or was modified"},
		{"from a RequestStateSecret server", newSecretRing(a.Secret, time.Minute, time.Hour), store.StaticKeys(a), "which this server does not hold"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			state := sealWith(tt.sealer)
			st, err := New(tt.opener, nil, time.Minute).Open(state, "bind", "p")
			if tt.wantErr == "" {
				if err != nil || st.Binding != "bind" {
					t.Fatalf("open: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("open: %v, want ErrInvalid saying %q", err, tt.wantErr)
			}
		})
	}
}

// TestRequestStateTampering: changing any byte of a sealed state, or
// cutting it, makes it invalid.
func TestRequestStateTampering(t *testing.T) {
	s := New(store.StaticKeys(testKey("k1", 1), testKey("k2", 2)), nil, time.Minute)
	state, err := s.Seal(&State{Binding: "bind"})
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
			if _, err := s.Open(base64.RawURLEncoding.EncodeToString(bad), "bind", ""); !errors.Is(err, ErrInvalid) {
				t.Fatalf("byte %d ^ %#x: open = %v, want ErrInvalid", i, flip, err)
			}
		}
	}
	// The id renamed to the other key the ring holds: the tag fails.
	bad := bytes.Clone(raw)
	bad[2] = '2'
	if _, err := s.Open(base64.RawURLEncoding.EncodeToString(bad), "bind", ""); err == nil || !strings.Contains(err.Error(), "modified") {
		t.Fatalf("state moved to another key: %v", err)
	}
	for n := range len(raw) {
		if _, err := s.Open(base64.RawURLEncoding.EncodeToString(raw[:n]), "bind", ""); !errors.Is(err, ErrInvalid) {
			t.Fatalf("state cut to %d bytes: open = %v", n, err)
		}
	}
	if _, err := s.Open("not base64!", "bind", ""); !errors.Is(err, ErrInvalid) {
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
		s := New(ring, nil, ttl)
		ring.now, s.now = func() time.Time { return t0 }, func() time.Time { return t0 }
		id, _ := ring.Current()
		state, err := s.Seal(&State{Binding: "b"})
		if err != nil {
			t.Fatal(err)
		}
		late := t0.Add(ttl - time.Second)
		ring.now, s.now = func() time.Time { return late }, func() time.Time { return late }
		if id2, _ := ring.Current(); id2 == id {
			t.Fatalf("ttl %v: the key did not rotate from %s by %v", ttl, id, late)
		}
		if _, err := s.Open(state, "b", ""); err != nil {
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

// badRing hands out a key the sealer must refuse.
type badRing struct{}

func (badRing) Current() (string, []byte)    { return "k", []byte("short") }
func (badRing) Lookup(string) ([]byte, bool) { return nil, false }

func TestSealRefusesBadCurrentKey(t *testing.T) {
	_, err := New(badRing{}, nil, time.Minute).Seal(&State{})
	if err == nil || !strings.Contains(err.Error(), "current key") {
		t.Fatalf("seal with a 5-byte secret: %v", err)
	}
}

// FuzzOpenRequestState: open never panics, and what it opens is a state
// this sealer sealed (the fuzzer's workers each seal their own seed, so
// the seed corpus carries one that opens).
func FuzzOpenRequestState(f *testing.F) {
	s := New(store.StaticKeys(testKey("k", 1)), nil, time.Minute)
	state, _ := s.Seal(&State{Binding: "b", Principal: "fuzz"})
	f.Add(state)
	f.Add("")
	f.Add("AA")
	f.Fuzz(func(t *testing.T, in string) {
		st, err := s.Open(in, "b", "fuzz")
		if err == nil && (st.Binding != "b" || st.Principal != "fuzz") {
			t.Fatalf("opened %q into %+v", in, st)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("open: %v, want ErrInvalid", err)
		}
	})
}

// TestSealerTTL: a state opens within its TTL and is refused, as expired,
// after it.
func TestSealerTTL(t *testing.T) {
	s := New(store.StaticKeys(testKey("k", 1)), nil, time.Minute)
	t0 := time.Now()
	s.now = func() time.Time { return t0 }
	state, err := s.Seal(&State{Binding: "b", Principal: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Open(state, "b", "p"); err != nil {
		t.Fatalf("open within the TTL: %v", err)
	}
	s.now = func() time.Time { return t0.Add(2 * time.Minute) }
	if _, err := s.Open(state, "b", "p"); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("open after the TTL: %v, want ErrInvalid saying expired", err)
	}
	if New(nil, nil, 0).TTL() != DefaultTTL {
		t.Fatal("no TTL given: not the default")
	}
}
