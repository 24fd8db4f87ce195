// Package pubsub is the in-process bus: NewMemory returns a store.Bus
// that delivers within one process (replicas started in one test, or a
// server that only needs the interface). The contract, and the bus over
// Redis (store/redisstore), are elsewhere: see package store.
//
// Delivery is at most once, as with Redis PUBLISH: a message that a slow
// subscriber has no room for is not delivered to it.
package pubsub
