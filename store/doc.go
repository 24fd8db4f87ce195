// Package store holds the contracts of the state a server shares with its
// replicas, kept outside the process: the SSE event log of resumable
// streams (EventStore, SequencedEventStore), the records of legacy
// sessions (SessionStore), the tasks (TaskStore, TaskLeaseStore), the keys
// that seal requestState (KeyRing) and the bus that carries announcements
// and routed messages between replicas (Bus). Stores bundles one of each
// for fastmcp.SharedStores.
//
// A backend implements these interfaces; store/redisstore is the one over
// Redis. The in-memory defaults live with the code that uses them:
// MemoryTaskStore here, transport's MemoryEventStore and
// MemorySessionStore, and pubsub's in-process bus.
//
// The package imports protocol and the standard library only, so that a
// backend does not link the server.
package store
