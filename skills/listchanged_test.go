package skills_test

import (
	"fmt"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/skills"
)

// TestAddFSNotifiesOnce: AddFS with many skills, while a client is
// connected, tells it that the resource list changed once (per burst),
// not once per skill.
func TestAddFSNotifiesOnce(t *testing.T) {
	t.Parallel()
	const n = 30
	fsys := fstest.MapFS{}
	for i := range n {
		name := fmt.Sprintf("skill-%d", i)
		fsys[name+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: a skill\n---\nBody\n")}
	}
	s := newServer()
	mustAdd(t, s, "pdf-processing", fstest.MapFS{"SKILL.md": {Data: []byte(pdfSkill)}}) // the resources capability, before the client comes
	var changed atomic.Int32
	c := connect(t, s, client.WithListChangedHandler(func(m string) {
		if m == protocol.NotificationResourcesListChanged {
			changed.Add(1)
		}
	}))
	if err := skills.AddFS(s, fsys); err != nil {
		t.Fatal(err)
	}
	list, err := skills.List(ctxT(t), c, "")
	if err != nil || len(list.Skills) != n+1 {
		t.Fatalf("List = %+v, %v; want %d skills", list, err, n+1)
	}
	for deadline := time.Now().Add(10 * time.Second); changed.Load() == 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // time for any notification still on its way
	// A loaded machine may split the registrations into a few bursts,
	// never into one per skill.
	if got := changed.Load(); got < 1 || got > n/5 {
		t.Errorf("resources/list_changed sent %d times for %d skills", got, n)
	}
}
