package fastmcp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// TestAppendBasicMatchesMarshal checks the fast encoding of integer and
// boolean results against protocol.Marshal, and that it declines other
// types.
func TestAppendBasicMatchesMarshal(t *testing.T) {
	t.Parallel()
	type level int // a named type: it could marshal itself, so it is declined
	for _, v := range []any{
		0, -1, math.MaxInt, math.MinInt, int8(math.MinInt8), int16(math.MaxInt16), int32(math.MinInt32), int64(math.MaxInt64),
		uint(math.MaxUint), uint8(255), uint16(7), uint32(math.MaxUint32), uint64(math.MaxUint64), true, false,
	} {
		want, err := protocol.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := appendBasic(nil, reflect.ValueOf(v))
		if !ok || string(got) != string(want) {
			t.Errorf("appendBasic(%T %v) = %s, %v; want %s", v, v, got, ok, want)
		}
	}
	for _, v := range []any{1.5, float32(2), "s", level(3), uintptr(1), []int{1}} {
		if got, ok := appendBasic(nil, reflect.ValueOf(v)); ok {
			t.Errorf("appendBasic(%T %v) = %s, want it declined", v, v, got)
		}
	}
}

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

// TestEncodeToolDefMatchesMarshal checks the direct encoding of tool
// definitions against protocol.Marshal, including strings that need
// escaping and invalid UTF-8 (which both must refuse).
func TestEncodeToolDefMatchesMarshal(t *testing.T) {
	t.Parallel()
	type args struct {
		Q string   `json:"q" jsonschema:"description=say \"hi\" <b>&</b>" validate:"min=1"`
		N int      `json:"n,omitempty" jsonschema:"default=3"`
		L []string `json:"l,omitempty"`
	}
	type out struct {
		R string `json:"r"`
	}
	in, err := schema.For(reflect.TypeFor[args](), schema.Options{})
	if err != nil {
		t.Fatal(err)
	}
	outS, err := schema.For(reflect.TypeFor[out](), schema.Options{Output: true})
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"", "plain", "quote \" backslash \\ slash /", "<tag> & \u2028 \u2029", "tab\tnl\n\x00\x1f", "ünïcødé 🙂", "bad \xff utf8"}
	for _, name := range texts {
		for _, text := range texts {
			for _, schemas := range [][2][]byte{{nil, nil}, {in.Schema(), nil}, {in.Schema(), outS.Schema()}} {
				def := &protocol.Tool{Name: name, Title: text, Description: text + "!", InputSchema: schemas[0], OutputSchema: schemas[1]}
				want, werr := protocol.Marshal(def)
				got, gerr := encodeToolDef(def, true)
				if (werr != nil) != (gerr != nil) || string(got) != string(want) {
					t.Fatalf("encodeToolDef(%+v) = %s, %v\nprotocol.Marshal: %s, %v", def, got, gerr, want, werr)
				}
			}
		}
	}
	ro := true
	def := &protocol.Tool{Name: "x", Annotations: &protocol.ToolAnnotations{ReadOnlyHint: &ro}, Meta: protocol.Meta{"k": 1}}
	want, _ := protocol.Marshal(def)
	if got, err := encodeToolDef(def, true); err != nil || string(got) != string(want) {
		t.Fatalf("with annotations and _meta: %s, %v; want %s", got, err, want)
	}
}
