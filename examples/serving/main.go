// Command serving is the complete program of docs/serving.md: a server
// with a lifespan (a store opened at start and closed at shutdown, reached
// from handlers with its static type), settings from flags and FASTMCP_*
// environment variables, and a custom HTTP route beside /mcp.
//
//	go run ./examples/serving                      # stdio
//	go run ./examples/serving -addr localhost:8000 # Streamable HTTP at /mcp, /healthz, /stats
//	FASTMCP_ADDR=localhost:8000 FASTMCP_LOG_LEVEL=debug go run ./examples/serving
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sync"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// Store stands for a database pool: opened once, shared by every call.
type Store struct {
	mu    sync.Mutex
	notes []string
}

func openStore(ctx context.Context) (*Store, func(context.Context) error, error) {
	s := &Store{}
	closeStore := func(context.Context) error {
		fmt.Fprintf(os.Stderr, "store closed with %d notes\n", len(s.notes))
		return nil
	}
	return s, closeStore, nil
}

// NoteArgs are the arguments of the add_note tool.
type NoteArgs struct {
	Text string `json:"text" jsonschema:"description=the note" validate:"min=1,max=500"`
}

func addNote(ctx *fastmcp.Context, in NoteArgs) (int, error) {
	store := fastmcp.State[*Store](ctx) // *Store, as the lifespan returned it
	store.mu.Lock()
	defer store.mu.Unlock()
	store.notes = append(store.notes, in.Text)
	return len(store.notes), nil
}

func main() {
	s := fastmcp.New("notes", "1.0.0", fastmcp.Lifespan(openStore))
	s.Tool("add_note", addNote, fastmcp.Description("Store a note; returns how many there are"))
	s.HandleHTTP("GET /stats", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "ok") // metrics, version, OAuth callbacks... live beside /mcp
	}))
	s.Flags(flag.CommandLine) // -addr, -transport, -log-level, ... override FASTMCP_* variables
	flag.Parse()
	if err := s.Run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "notes:", err)
		os.Exit(1)
	}
}
