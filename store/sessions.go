package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// A SessionStore keeps a record of each legacy (2025-11-25 and older)
// Streamable HTTP session, so that any replica of a server sharing the
// store can serve the session's requests (see transport.HTTPOptions.Sessions): a
// replica that gets a request for a session it does not know looks the id
// up and adopts the session. transport.MemorySessionStore keeps them in
// one process.
//
// A record lives until Delete, or until ttl has passed since it was last
// created or touched (ttl zero: no expiry). Implementations must be safe
// for concurrent use and must not keep the records they are given.
type SessionStore interface {
	// Create stores rec under rec.ID, replacing any record of that id, to
	// expire ttl from now.
	Create(ctx context.Context, rec *SessionRecord, ttl time.Duration) error
	// Get returns the record of id. It fails with an error matching
	// ErrSessionUnknown when there is none (never created, deleted or
	// expired).
	Get(ctx context.Context, id string) (*SessionRecord, error)
	// Touch marks the session active at now: its LastActive becomes now
	// and its expiry ttl from now. It fails with an error matching
	// ErrSessionUnknown when there is no record.
	Touch(ctx context.Context, id string, now time.Time, ttl time.Duration) error
	// SetState sets the member name of the record's State to value,
	// replacing any value it had, without changing the record's expiry.
	// The server side keeps there what the session's client set that
	// every replica serving the session must know (lowlevel keeps the
	// level of logging/setLevel); the store does not interpret it. It
	// fails with an error matching ErrSessionUnknown when there is no
	// record.
	SetState(ctx context.Context, id, name string, value json.RawMessage) error
	// Subscribe records that the client of session id subscribed to
	// updates of uri (resources/subscribe): uri joins the record's
	// Subscriptions and the session is among Subscribers(uri) for as long
	// as its record lives. It fails with an error matching
	// ErrSessionUnknown when there is no record.
	Subscribe(ctx context.Context, id, uri string) error
	// Unsubscribe undoes Subscribe (resources/unsubscribe) and reports
	// whether the session was subscribed to uri; a uri the session did not
	// subscribe to, or a session without a record, is not an error.
	Unsubscribe(ctx context.Context, id, uri string) (removed bool, err error)
	// Subscribers returns the ids of the sessions subscribed to uri whose
	// records live (not deleted nor expired), in no particular order.
	Subscribers(ctx context.Context, uri string) ([]string, error)
	// Delete removes the record of id, if any, and its subscriptions.
	Delete(ctx context.Context, id string) error
}

// ErrSessionUnknown is reported by a SessionStore for a session it has no
// record of.
var ErrSessionUnknown = errors.New("store: no such session in the session store")

// SessionRecord is what a SessionStore keeps of a legacy session: enough
// for another replica to serve it as if it had seen its initialize.
type SessionRecord struct {
	// ID is the session's Mcp-Session-Id.
	ID string `json:"id"`
	// Principal is the caller that created the session
	// (transport.HTTPOptions.Principal); only requests with the same principal may
	// use it.
	Principal string `json:"principal,omitempty"`
	// Version is the protocol revision initialize negotiated.
	Version string `json:"version"`
	// InitializeParams are the params of the client's initialize request,
	// as sent (its capabilities and clientInfo).
	InitializeParams json.RawMessage `json:"initializeParams,omitempty"`
	// State holds the members of the session's state that the server
	// side set with SetState, by name: JSON values the store keeps as
	// given. Nil when none was set.
	State map[string]json.RawMessage `json:"state,omitempty"`
	// Subscriptions are the URIs the client subscribed to with
	// resources/subscribe and did not unsubscribe from, sorted.
	Subscriptions []string `json:"subscriptions,omitempty"`
	// Created and LastActive are when the session started and when a
	// replica last reported activity (at most every ttl/4 per replica).
	Created    time.Time `json:"created"`
	LastActive time.Time `json:"lastActive"`
}
