package store

import "fmt"

// A Key is one secret of a key ring, named by its ID.
type Key struct {
	// ID names the key in every state it seals (sent in clear): 1 to
	// MaxKeyIDLen bytes.
	ID string
	// Secret is at least MinKeySecretLen random bytes (32 are usual).
	Secret []byte
}

// Check reports what is wrong with k as a key of a KeyRing, or nil.
func (k Key) Check() error {
	switch {
	case k.ID == "":
		return fmt.Errorf("the id is empty; name the key")
	case len(k.ID) > MaxKeyIDLen:
		return fmt.Errorf("the id %q is %d bytes; keep it to %d", k.ID, len(k.ID), MaxKeyIDLen)
	case len(k.Secret) < MinKeySecretLen:
		return fmt.Errorf("key %q has a %d-byte secret; give it at least %d random bytes (32 are usual)", k.ID, len(k.Secret), MinKeySecretLen)
	}
	return nil
}

// StaticKeys returns a key ring of fixed keys: the first one seals, every
// one opens. It suits keys kept in the configuration of every replica.
// To rotate by hand, put a new key first and keep the old one second;
// remove the old one once every replica seals with the new one and
// fastmcp.RequestStateTTL has passed. The ring keeps copies of the
// secrets.
//
// It panics, saying what to fix, when no key is given, an id is empty,
// longer than MaxKeyIDLen or repeated, or a secret is shorter than
// MinKeySecretLen.
func StaticKeys(keys ...Key) KeyRing {
	if len(keys) == 0 {
		panic("store.StaticKeys: no key given; pass at least the key that seals")
	}
	r := &staticRing{current: keys[0].ID, keys: make(map[string][]byte, len(keys))}
	for i, k := range keys {
		if err := k.Check(); err != nil {
			panic(fmt.Sprintf("store.StaticKeys: key %d: %v", i, err))
		}
		if _, dup := r.keys[k.ID]; dup {
			panic(fmt.Sprintf("store.StaticKeys: key id %q given twice; give each key its own id", k.ID))
		}
		r.keys[k.ID] = append([]byte(nil), k.Secret...)
	}
	return r
}

type staticRing struct {
	current string
	keys    map[string][]byte
}

func (r *staticRing) Current() (string, []byte) { return r.current, r.keys[r.current] }

func (r *staticRing) Lookup(id string) ([]byte, bool) {
	s, ok := r.keys[id]
	return s, ok
}
