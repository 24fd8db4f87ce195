package store

import (
	"context"
	"errors"
)

// An EventStore keeps the events sent on the resumable SSE streams of the
// Streamable HTTP handler (package transport), so a client that lost a
// connection can reconnect with Last-Event-ID and receive what it missed.
// transport.MemoryEventStore is the default.
//
// Events are identified by session, stream and sequence number: within a
// stream, Append is called with seq 1, 2, 3, ... in order (never
// concurrently for the same stream), and the handler turns the triple into
// the SSE event id "<stream>_<seq>". A store may forget old events to bound
// its memory; Replay then reports ErrEventsLost.
//
// Implementations must be safe for concurrent use. Append must not keep
// data after it returns (copy it).
type EventStore interface {
	// Append records data, one encoded JSON-RPC message, as event seq of
	// stream in session.
	Append(ctx context.Context, session, stream string, seq int64, data []byte) error
	// Replay calls fn, in order, for each stored event of stream in session
	// whose sequence number is greater than after. It returns an error
	// matching ErrEventsLost, without calling fn, when some of those events
	// are no longer stored; an error returned by fn stops the replay and is
	// returned. fn must not keep data after it returns.
	Replay(ctx context.Context, session, stream string, after int64, fn func(seq int64, data []byte) error) error
	// DeleteSession forgets every event of session. The handler calls it
	// when the session ends.
	DeleteSession(ctx context.Context, session string) error
}

// A SequencedEventStore is an EventStore that numbers events itself. The
// Streamable HTTP handler uses it for the GET stream of a session shared
// between replicas (transport.HTTPOptions.Sessions), where any replica may append
// an event: the store gives each the next number of its stream, so the
// replica holding the client's connection delivers them in one order and
// a client resuming with Last-Event-ID on any replica gets each once.
type SequencedEventStore interface {
	EventStore
	// AppendNext records data as the next event of stream in session:
	// its sequence number, returned, is one more than that of the
	// stream's last event (stored or discarded since), 1 for the first.
	// Concurrent calls, from any process sharing the store, get distinct
	// numbers. A stream is numbered either by Append or by AppendNext.
	AppendNext(ctx context.Context, session, stream string, data []byte) (int64, error)
}

// ErrEventsLost is reported by EventStore.Replay when events the client
// has not seen were discarded, so the stream cannot be resumed exactly.
var ErrEventsLost = errors.New("store: SSE events to replay are no longer stored")
