package fastmcp

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/internal/cursor"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestRegistryKeepsOrder checks the snapshots a registry builds after
// updates (and has and count, which read between updates) over random
// additions, removals and replacements.
func TestRegistryKeepsOrder(t *testing.T) {
	t.Parallel()
	var r registry[*tool]
	rng := rand.New(rand.NewPCG(1, 2))
	names := map[string]bool{}
	for i := range 2000 {
		name := fmt.Sprintf("t%d", rng.IntN(300))
		tl := &tool{def: &protocol.Tool{Name: name}}
		switch op := rng.IntN(3); {
		case op == 0 && names[name]:
			r.update(func(m map[string]*tool) { delete(m, name) })
			delete(names, name)
		case op == 1 && i%7 == 0:
			other := fmt.Sprintf("t%d", rng.IntN(300))
			r.update(func(m map[string]*tool) { m[name] = tl; m[other] = &tool{def: &protocol.Tool{Name: other}} })
			names[name], names[other] = true, true
		default:
			r.update(func(m map[string]*tool) { m[name] = tl })
			names[name] = true
		}
		if r.count() != len(names) || !r.has(name) && names[name] || r.has(name) && !names[name] {
			t.Fatalf("step %d: count %d, has(%s) %v; want %d, %v", i, r.count(), name, r.has(name), len(names), names[name])
		}
		snap := r.load()
		if r.load() != snap {
			t.Fatalf("step %d: a snapshot was rebuilt without an update", i)
		}
		got := snap.sorted
		if len(got) != len(names) {
			t.Fatalf("step %d: %d entries, want %d", i, len(got), len(names))
		}
		for j, e := range got {
			if r.load().byKey[e.key()] != e || (j > 0 && got[j-1].key() >= e.key()) {
				t.Fatalf("step %d: entries out of order or stale at %d", i, j)
			}
		}
	}
}

// TestRegistryConcurrentReaders updates a registry while readers list and
// look up entries (run with -race): every reader sees a whole snapshot.
func TestRegistryConcurrentReaders(t *testing.T) {
	t.Parallel()
	var r registry[*tool]
	var wg sync.WaitGroup
	done := make(chan struct{})
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				s := r.load()
				for _, e := range s.sorted {
					if s.byKey[e.key()] != e {
						t.Error("a snapshot's list and map disagree")
						return
					}
				}
				if _, err := r.page("tools", "", 50); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := range 500 {
		name := fmt.Sprintf("t%03d", i)
		r.update(func(m map[string]*tool) { m[name] = &tool{def: &protocol.Tool{Name: name}} })
		if _, ok := r.get(name); !ok {
			t.Fatalf("%s missing after its update", name)
		}
	}
	close(done)
	wg.Wait()
	if r.len() != 500 {
		t.Fatalf("len %d, want 500", r.len())
	}
}

// TestRegistryFilteredPages lists random registries page by page, hiding
// a random subset of entries: the pages hold exactly the visible entries,
// in order, each once; every page but the last is full and the last is
// empty only when nothing is visible.
func TestRegistryFilteredPages(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 300 {
		var r registry[*tool]
		n, size := rng.IntN(40), 1+rng.IntN(5)
		hidden := map[string]bool{}
		var want []string
		r.update(func(m map[string]*tool) {
			for i := range n {
				name := fmt.Sprintf("t%02d", i)
				m[name] = &tool{def: &protocol.Tool{Name: name}}
				if rng.IntN(3) == 0 {
					hidden[name] = true
				} else {
					want = append(want, name)
				}
			}
		})
		visible := func(tl *tool) bool { return !hidden[tl.key()] }
		var got []string
		cur := ""
		for page := 0; ; page++ {
			if page > n+1 {
				t.Fatalf("round %d: pages never end", round)
			}
			items, more, err := r.load().slice(cur, size, visible)
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			if more && len(items) != size || !more && len(items) == 0 && len(got) > 0 {
				t.Fatalf("round %d page %d: %d items, more %v (size %d)", round, page, len(items), more, size)
			}
			for _, e := range items {
				got = append(got, e.key())
			}
			if !more {
				break
			}
			cur = cursor.Encode(items[len(items)-1].key())
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("round %d: listed %v, want %v", round, got, want)
		}
	}
}
