package store_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/internal/kvtest"
	"github.com/fastmcp-go/fastmcp/store"
)

func TestMemoryKV(t *testing.T) {
	kvtest.Run(t, func(*testing.T) store.KV { return store.NewMemoryKV() })
}

// TestMemoryKVSweeps: values that expired and are never read again do not
// stay: writes drop them as they go.
func TestMemoryKVSweeps(t *testing.T) {
	kv := store.NewMemoryKV()
	ctx := t.Context()
	for i := range 1000 {
		if err := kv.Set(ctx, fmt.Sprint("old", i), []byte("x"), time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(5 * time.Millisecond)
	for i := range 2000 {
		if err := kv.Set(ctx, fmt.Sprint("new", i%10), []byte("x"), 0); err != nil {
			t.Fatal(err)
		}
	}
	if n := kv.Len(); n > 100 {
		t.Fatalf("%d values held after 2000 writes, want the 10 live ones and few expired", n)
	}
}
