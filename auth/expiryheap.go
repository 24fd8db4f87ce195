package auth

import (
	"crypto/sha256"
	"time"
)

// expiryEntry is a digest (of a DPoP proof or of a token) and the time it
// stops mattering.
type expiryEntry struct {
	digest [sha256.Size]byte
	until  time.Time
}

// expiryHeap is a min-heap of entries by until (container/heap), so that
// the caches of this package drop what expires first in O(log n).
type expiryHeap []expiryEntry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].until.Before(h[j].until) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiryEntry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
