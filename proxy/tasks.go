package proxy

import (
	"encoding/json"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// The backend binds every task to one client, the proxy. The proxy binds
// each task started through it to the caller that started it, so that
// tasks/get, tasks/update and tasks/cancel from another principal are
// answered as for an unknown task, as a server answers them.

// taskOwner is who started a task through the proxy, and until when the
// proxy remembers it.
type taskOwner struct {
	principal string
	expires   time.Time
}

const (
	// proxyTaskTTL is how long the proxy remembers a task whose backend
	// gave no ttlMs, and the most it remembers any task.
	proxyTaskTTL = 24 * time.Hour
	// proxyTaskSweep is the number of remembered tasks past which
	// recording one first drops the expired ones.
	proxyTaskSweep = 1024
)

// noteTask records the caller of a tools/call whose raw result created a
// task.
func (p *proxyBackend) noteTask(raw json.RawMessage, principal string) {
	var head struct {
		ResultType string `json:"resultType"`
		TaskID     string `json:"taskId"`
		TTLMs      *int64 `json:"ttlMs"`
	}
	if protocol.Unmarshal(raw, &head) != nil || head.ResultType != protocol.ResultTypeTask || head.TaskID == "" {
		return
	}
	ttl := proxyTaskTTL
	if head.TTLMs != nil && *head.TTLMs > 0 && time.Duration(*head.TTLMs)*time.Millisecond < ttl {
		ttl = time.Duration(*head.TTLMs) * time.Millisecond
	}
	now := time.Now()
	p.ownMu.Lock()
	defer p.ownMu.Unlock()
	if p.owners == nil {
		p.owners = map[string]taskOwner{}
	}
	if len(p.owners) >= proxyTaskSweep {
		for id, o := range p.owners {
			if now.After(o.expires) {
				delete(p.owners, id)
			}
		}
	}
	p.owners[head.TaskID] = taskOwner{principal: principal, expires: now.Add(ttl)}
}

// ownsTask reports whether principal started the task id through the
// proxy, and the task is still remembered.
func (p *proxyBackend) ownsTask(id, principal string) bool {
	p.ownMu.Lock()
	defer p.ownMu.Unlock()
	o, ok := p.owners[id]
	if ok && time.Now().After(o.expires) {
		delete(p.owners, id)
		return false
	}
	return ok && o.principal == principal
}
