// Package kvtest holds the behaviour every store.KV must have, run by the
// tests of each implementation (store.MemoryKV, redisstore.KV).
package kvtest

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/store"
)

// Run runs the behaviour cases against fresh KVs from newKV.
func Run(t *testing.T, newKV func(t *testing.T) store.KV) {
	cases := []struct {
		name string
		run  func(t *testing.T, kv store.KV)
	}{
		{"set then get", setGet},
		{"missing keys", missing},
		{"add only when absent", addOnce},
		{"take once", takeOnce},
		{"one of concurrent takes wins", concurrentTake},
		{"one of concurrent adds wins", concurrentAdd},
		{"values expire", expiry},
		{"values are copied", noAliasing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, newKV(t)) })
	}
}

func setGet(t *testing.T, kv store.KV) {
	ctx := t.Context()
	must(t, kv.Set(ctx, "a", []byte("1"), 0))
	must(t, kv.Set(ctx, "a", []byte("2"), time.Hour))
	if got, err := kv.Get(ctx, "a"); err != nil || string(got) != "2" {
		t.Fatalf("Get after two Sets: %q, %v; want the second value", got, err)
	}
	must(t, kv.Delete(ctx, "a"))
	must(t, kv.Delete(ctx, "a")) // deleting nothing is not an error
	if _, err := kv.Get(ctx, "a"); !errors.Is(err, store.ErrKeyNotFound) {
		t.Fatalf("Get after Delete: %v, want ErrKeyNotFound", err)
	}
}

func missing(t *testing.T, kv store.KV) {
	ctx := t.Context()
	if _, err := kv.Get(ctx, "nothing"); !errors.Is(err, store.ErrKeyNotFound) {
		t.Errorf("Get: %v, want ErrKeyNotFound", err)
	}
	if _, err := kv.Take(ctx, "nothing"); !errors.Is(err, store.ErrKeyNotFound) {
		t.Errorf("Take: %v, want ErrKeyNotFound", err)
	}
}

func addOnce(t *testing.T, kv store.KV) {
	ctx := t.Context()
	if ok, err := kv.Add(ctx, "k", []byte("first"), time.Hour); err != nil || !ok {
		t.Fatalf("first Add: %v, %v", ok, err)
	}
	if ok, err := kv.Add(ctx, "k", []byte("second"), time.Hour); err != nil || ok {
		t.Fatalf("second Add: %v, %v; want false", ok, err)
	}
	if got, _ := kv.Get(ctx, "k"); string(got) != "first" {
		t.Fatalf("value %q, want the first Add's", got)
	}
}

func takeOnce(t *testing.T, kv store.KV) {
	ctx := t.Context()
	must(t, kv.Set(ctx, "code", []byte("grant"), time.Hour))
	if got, err := kv.Take(ctx, "code"); err != nil || string(got) != "grant" {
		t.Fatalf("Take: %q, %v", got, err)
	}
	if _, err := kv.Take(ctx, "code"); !errors.Is(err, store.ErrKeyNotFound) {
		t.Fatalf("second Take: %v, want ErrKeyNotFound", err)
	}
}

// race runs f from 16 goroutines at once and returns how many reported a
// win.
func race(t *testing.T, f func() (bool, error)) int {
	var wins atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			<-start
			won, err := f()
			if err != nil {
				t.Error(err)
			}
			if won {
				wins.Add(1)
			}
		})
	}
	close(start)
	wg.Wait()
	return int(wins.Load())
}

func concurrentTake(t *testing.T, kv store.KV) {
	ctx := t.Context()
	must(t, kv.Set(ctx, "once", []byte("x"), time.Hour))
	wins := race(t, func() (bool, error) {
		_, err := kv.Take(ctx, "once")
		if errors.Is(err, store.ErrKeyNotFound) {
			return false, nil
		}
		return err == nil, err
	})
	if wins != 1 {
		t.Fatalf("%d of 16 concurrent Takes got the value, want 1", wins)
	}
}

func concurrentAdd(t *testing.T, kv store.KV) {
	ctx := context.Background()
	wins := race(t, func() (bool, error) { return kv.Add(ctx, "lock", []byte("x"), time.Hour) })
	if wins != 1 {
		t.Fatalf("%d of 16 concurrent Adds won, want 1", wins)
	}
}

func expiry(t *testing.T, kv store.KV) {
	ctx := t.Context()
	must(t, kv.Set(ctx, "short", []byte("x"), 50*time.Millisecond))
	if ok, err := kv.Add(ctx, "short-add", []byte("x"), 50*time.Millisecond); err != nil || !ok {
		t.Fatalf("Add: %v, %v", ok, err)
	}
	must(t, kv.Set(ctx, "long", []byte("y"), time.Hour))
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err1 := kv.Get(ctx, "short")
		_, err2 := kv.Get(ctx, "short-add")
		if errors.Is(err1, store.ErrKeyNotFound) && errors.Is(err2, store.ErrKeyNotFound) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("values with a 50ms TTL still there after 10s: %v, %v", err1, err2)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if ok, err := kv.Add(ctx, "short-add", []byte("again"), time.Hour); err != nil || !ok {
		t.Fatalf("Add over an expired value: %v, %v; want true", ok, err)
	}
	if got, err := kv.Get(ctx, "long"); err != nil || string(got) != "y" {
		t.Fatalf("a value with a long TTL: %q, %v", got, err)
	}
}

func noAliasing(t *testing.T, kv store.KV) {
	ctx := t.Context()
	v := []byte("abc")
	must(t, kv.Set(ctx, "k", v, 0))
	v[0] = 'X'
	got, err := kv.Get(ctx, "k")
	must(t, err)
	if !bytes.Equal(got, []byte("abc")) {
		t.Fatalf("the store kept the caller's slice: %q", got)
	}
	got[0] = 'Y'
	if again, _ := kv.Get(ctx, "k"); !bytes.Equal(again, []byte("abc")) {
		t.Fatalf("Get returned the store's own slice: %q", again)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
