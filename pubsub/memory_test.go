package pubsub_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/internal/pubsubtest"
	"github.com/fastmcp-go/fastmcp/pubsub"
	"github.com/fastmcp-go/fastmcp/store"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestMemory(t *testing.T) {
	shared := pubsub.NewMemory(nil)
	t.Cleanup(func() { shared.Close() })
	pubsubtest.Run(t, func(*testing.T) store.Bus { return shared })
}

func TestMemoryClose(t *testing.T) {
	m := pubsub.NewMemory(nil)
	if _, err := m.Subscribe(context.Background(), "t", func([]byte) {}); err != nil {
		t.Fatal(err)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if err := m.Publish(context.Background(), "t", nil); !errors.Is(err, store.ErrBusClosed) {
		t.Errorf("Publish after Close: %v", err)
	}
	if _, err := m.Subscribe(context.Background(), "t", func([]byte) {}); !errors.Is(err, store.ErrBusClosed) {
		t.Errorf("Subscribe after Close: %v", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func TestMemorySlowSubscriberDrops(t *testing.T) {
	var logs bytes.Buffer
	m := pubsub.NewMemory(&pubsub.MemoryOptions{Buffer: 2, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	defer m.Close()
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	un, err := m.Subscribe(context.Background(), "t", func([]byte) {
		select {
		case started <- struct{}{}:
		default:
		}
		<-release
	})
	if err != nil {
		t.Fatal(err)
	}
	defer un()
	// The first message occupies the callback, two fill the buffer, the
	// fourth is dropped.
	if err := m.Publish(context.Background(), "t", []byte("1")); err != nil {
		t.Fatal(err)
	}
	<-started
	for _, s := range []string{"2", "3", "4"} {
		if err := m.Publish(context.Background(), "t", []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	close(release)
	if !strings.Contains(logs.String(), "message dropped") {
		t.Errorf("no warning logged: %q", logs.String())
	}
}
