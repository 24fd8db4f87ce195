// Package pubsub carries messages between the replicas of a server: a
// list change, a resource update or a task's new status announced on one
// replica reaches the clients connected to the others, and a legacy
// session's messages reach the replica that serves the session.
//
// A [Bus] delivers each message published on a topic to every current
// subscriber of the topic, in this process and in every other process
// sharing the bus. [NewMemory] returns the bus of one process (replicas
// started in one test, or a server that only needs the interface);
// store/redisstore provides one over Redis.
//
// Delivery is at most once, as with Redis PUBLISH: a message published
// while a subscriber is disconnected, or that a slow subscriber has no room
// for, is not delivered to it. Callers use the bus for announcements and
// for routing a message to the process that waits for it, and keep
// anything that must not be lost in a store.
package pubsub
