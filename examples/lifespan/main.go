// Command lifespan gives a server a database handle that is opened once
// when the server starts, shared by every call, and closed after the last
// call when the server shuts down. The "database" is an in-memory key-value
// store so the example needs nothing installed; a *sql.DB or a pool of
// another driver fits the same way. Run it with
//
//	go run ./examples/lifespan
//
// The server runs in the same process over HTTP on 127.0.0.1 (a free port).
// It prints:
//
//	db: opened memory://notes
//	put greeting → 1 row(s)
//	put farewell → 2 row(s)
//	get greeting → hello
//	get missing → error: no row with key "missing"
//	db: closed with 2 row(s)
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// DB stands for a database handle: safe for concurrent use, opened and
// closed once.
type DB struct {
	mu     sync.Mutex
	rows   map[string]string
	closed bool
}

// ErrNoRow is returned by Get for a key that is not stored.
var ErrNoRow = errors.New("no row")

// ErrClosed is returned after Close.
var ErrClosed = errors.New("database closed")

// Open opens the database named by dsn.
func Open(ctx context.Context, dsn string) (*DB, error) {
	if !strings.HasPrefix(dsn, "memory://") {
		return nil, fmt.Errorf("open %s: only memory:// databases exist here", dsn)
	}
	return &DB{rows: map[string]string{}}, nil
}

// Put stores value under key and returns how many rows there are.
func (db *DB) Put(key, value string) (int, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return 0, ErrClosed
	}
	db.rows[key] = value
	return len(db.rows), nil
}

// Get returns the value stored under key.
func (db *DB) Get(key string) (string, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	if db.closed {
		return "", ErrClosed
	}
	v, ok := db.rows[key]
	if !ok {
		return "", fmt.Errorf("%w with key %q", ErrNoRow, key)
	}
	return v, nil
}

// Close closes the database and returns how many rows it held.
func (db *DB) Close() (int, error) {
	db.mu.Lock()
	defer db.mu.Unlock()
	db.closed = true
	return len(db.rows), nil
}

// PutArgs are the arguments of the put tool.
type PutArgs struct {
	Key   string `json:"key" validate:"min=1"`
	Value string `json:"value"`
}

// GetArgs are the arguments of the get tool.
type GetArgs struct {
	Key string `json:"key" validate:"min=1"`
}

func newServer(dsn string, out io.Writer, opts ...fastmcp.Option) *fastmcp.Server {
	// The lifespan opens the database before the first request and returns
	// the cleanup the server runs at shutdown, after the last request.
	open := func(ctx context.Context) (*DB, func(context.Context) error, error) {
		db, err := Open(ctx, dsn)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintln(out, "db: opened", dsn)
		closeDB := func(context.Context) error {
			n, err := db.Close()
			fmt.Fprintf(out, "db: closed with %d row(s)\n", n)
			return err
		}
		return db, closeDB, nil
	}
	s := fastmcp.New("kv", "1.0.0", append(opts, fastmcp.Lifespan(open))...)
	s.Tool("put", func(ctx *fastmcp.Context, in PutArgs) (int, error) {
		return fastmcp.State[*DB](ctx).Put(in.Key, in.Value) // *DB, as the lifespan returned it
	}, fastmcp.Description("Store a value; returns the number of rows"))
	s.Tool("get", func(ctx *fastmcp.Context, in GetArgs) (string, error) {
		return fastmcp.State[*DB](ctx).Get(in.Key)
	}, fastmcp.Description("Read a value"), fastmcp.ReadOnly())
	return s
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "lifespan:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free loopback port
	if err != nil {
		return err
	}
	url, stop, err := serve(ctx, newServer("memory://notes", out, fastmcp.Listener(ln)), ln)
	if err != nil {
		return err // the lifespan's error: the server does not start
	}
	err = use(ctx, url, out)
	stop() // the server shuts down: the lifespan's cleanup closes the database
	return err
}

func use(ctx context.Context, url string, out io.Writer) error {
	c, err := client.ConnectHTTP(ctx, url)
	if err != nil {
		return err
	}
	defer c.Close()
	for _, kv := range [][2]string{{"greeting", "hello"}, {"farewell", "goodbye"}} {
		res, err := c.CallTool(ctx, "put", PutArgs{Key: kv[0], Value: kv[1]})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "put %s → %s row(s)\n", kv[0], res.Text())
	}
	for _, key := range []string{"greeting", "missing"} {
		res, err := c.CallTool(ctx, "get", GetArgs{Key: key})
		if err != nil {
			return err
		}
		if res.IsError { // the tool returned an error: the model sees its text
			fmt.Fprintf(out, "get %s → error: %s\n", key, res.Text())
			continue
		}
		fmt.Fprintf(out, "get %s → %s\n", key, res.Text())
	}
	return nil
}

// serve starts s (made with the option fastmcp.Listener(ln)) — running
// its lifespan — and serves it over HTTP until stop is called.
func serve(ctx context.Context, s *fastmcp.Server, ln net.Listener) (url string, stop func(), err error) {
	if err := s.Start(ctx); err != nil {
		ln.Close()
		return "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	return "http://" + ln.Addr().String() + "/mcp", func() { cancel(); <-done }, nil
}
