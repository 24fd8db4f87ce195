package store

// Stores are the state a server shares with its replicas: give them to
// the server with fastmcp.SharedStores, or let the server open them from
// its RedisURL setting. A nil field keeps the server's in-memory default
// (no Bus: nothing crosses to another replica). Package store/redisstore
// makes them on Redis.
type Stores struct {
	// Events is the SSE event log of resumable streams.
	Events EventStore
	// Sessions keeps the records of legacy sessions, so that any replica
	// serves any session.
	Sessions SessionStore
	// Tasks keeps the tasks; a TaskLeaseStore also notices the tasks of a
	// replica that died.
	Tasks TaskStore
	// Keys seals requestState; every replica opens what another sealed.
	Keys KeyRing
	// Bus carries list changes, resource updates, task status and a
	// legacy session's messages between the replicas. The server
	// subscribes when it starts and unsubscribes at Shutdown; what it
	// announces reaches the clients of every replica, each client once.
	// Delivery is at most once (see Bus).
	Bus Bus
	// KV keeps the state of the OAuth authorization server and proxy
	// (module oauthserver): clients, codes, grants, signing keys and
	// upstream tokens. The server itself does not use it; give it to
	// oauthserver.Config.Store.
	KV KV
	// Close releases what the stores hold (a poller, a client); the
	// server calls it at Shutdown, after its last request. It may be nil.
	Close func() error
}
