package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestMemoryTaskStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	m := NewMemoryTaskStore()
	m.now = func() time.Time { return now }
	for _, r := range []*TaskRecord{
		{ID: "a", Principal: "alice", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Minute},
		{ID: "b", Principal: "bob", Status: protocol.TaskWorking, CreatedAt: now, TTL: time.Hour},
		{ID: "c", Principal: "alice", Status: protocol.TaskWorking, CreatedAt: now.Add(time.Second)},
	} {
		if err := m.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Create(ctx, &TaskRecord{ID: "a"}); err == nil {
		t.Error("Create with a used id succeeded")
	}

	// Records are copies: changing one changes nothing stored.
	a, err := m.Get(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	a.Status, a.Result = protocol.TaskCompleted, json.RawMessage(`{"content":[]}`)
	if again, _ := m.Get(ctx, "a"); again.Status != protocol.TaskWorking {
		t.Errorf("stored record changed through a copy: %+v", again)
	}
	if err := m.Update(ctx, a); err != nil {
		t.Fatal(err)
	}
	if again, _ := m.Get(ctx, "a"); !again.Terminal() || string(again.Result) != `{"content":[]}` {
		t.Errorf("after Update: %+v", again)
	}

	list, _ := m.List(ctx, "alice")
	if len(list) != 2 || list[0].ID != "a" || list[1].ID != "c" {
		t.Errorf("List(alice) = %v", list)
	}

	// A minute later a is gone, b and c (no TTL) stay.
	now = now.Add(time.Minute)
	for id, want := range map[string]error{"a": ErrTaskNotFound, "b": nil, "c": nil, "zz": ErrTaskNotFound} {
		if _, err := m.Get(ctx, id); !errors.Is(err, want) {
			t.Errorf("Get(%s) = %v, want %v", id, err, want)
		}
	}
	if err := m.Update(ctx, a); !errors.Is(err, ErrTaskNotFound) {
		t.Errorf("Update of an expired task = %v", err)
	}
	if list, _ := m.List(ctx, "alice"); len(list) != 1 || list[0].ID != "c" {
		t.Errorf("List(alice) after expiry = %v", list)
	}

	// The record survives a JSON round trip (a shared store serialises it).
	b, _ := m.Get(ctx, "b")
	raw, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var back TaskRecord
	if err := json.Unmarshal(raw, &back); err != nil || back.ID != "b" || back.TTL != time.Hour || !back.CreatedAt.Equal(b.CreatedAt) {
		t.Errorf("round trip: %+v %v", back, err)
	}
}
