package fastmcp

import (
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// listChangedDelay is how long a server gathers the changes of its lists
// before it tells its clients, so that registering many components in a
// row (a loop of Tool, skills.AddFS with N skills) sends one
// notifications/*/list_changed per list instead of one per component, and
// no client lists N times. The registries themselves change at once.
const listChangedDelay = 10 * time.Millisecond

// listChanges gathers the list_changed notifications a server owes its
// clients. The first change of a burst arms a timer; when it fires, each
// list that changed is announced once, outside every registry lock.
type listChanges struct {
	mu      sync.Mutex
	pending [3]bool // tools, prompts, resources
	armed   bool    // a timer gathers a burst
}

// listChangedMethods are the notifications listChanges sends, in the order
// of its pending flags.
var listChangedMethods = [3]string{
	protocol.NotificationToolsListChanged,
	protocol.NotificationPromptsListChanged,
	protocol.NotificationResourcesListChanged,
}

// mark records that the list of method changed and arms the timer that
// calls send for each list changed meanwhile. An unknown method is sent at
// once.
func (l *listChanges) mark(method string, send func(method string)) {
	i := -1
	for j, m := range listChangedMethods {
		if m == method {
			i = j
		}
	}
	if i < 0 {
		send(method)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending[i] = true
	if !l.armed {
		l.armed = true
		time.AfterFunc(listChangedDelay, func() { l.flush(send) })
	}
}

// flush sends one notification for each list that changed since the timer
// was armed.
func (l *listChanges) flush(send func(method string)) {
	l.mu.Lock()
	pending := l.pending
	l.pending, l.armed = [3]bool{}, false
	l.mu.Unlock()
	for i, changed := range pending {
		if changed {
			send(listChangedMethods[i])
		}
	}
}
