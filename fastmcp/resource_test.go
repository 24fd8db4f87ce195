package fastmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// pngHeader is enough of a PNG for MIME detection.
var pngHeader = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

// legacyRevision makes a client speak the latest legacy revision.
var legacyRevision = client.WithProtocolVersion(protocol.LatestLegacyVersion)

// revisions runs fn against s once with a legacy client and once with a
// modern (2026-07-28) one.
func revisions(t *testing.T, s *fastmcp.Server, fn func(t *testing.T, c *client.Client)) {
	t.Helper()
	for _, rev := range []string{protocol.LatestLegacyVersion, protocol.Version20260728} {
		t.Run(rev, func(t *testing.T) {
			t.Parallel()
			c := connect(t, s, client.WithProtocolVersion(rev))
			fn(t, c)
		})
	}
}

// contentsJSON encodes resource contents for comparison.
func contentsJSON(t *testing.T, contents []fastmcp.ResourceContents) string {
	t.Helper()
	b, err := protocol.Marshal(contents)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wireError returns err's *protocol.Error, failing t when there is none.
func wireError(t *testing.T, err error) *protocol.Error {
	t.Helper()
	perr, ok := errors.AsType[*protocol.Error](err)
	if !ok {
		t.Fatalf("err = %v (%T), want a *protocol.Error", err, err)
	}
	return perr
}

type UserRef struct {
	ID int `json:"id" validate:"gte=1"`
}

type UserProfile struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type FilePath struct {
	Path string `json:"path"`
}

type PathSegments struct {
	Path []string `json:"path"`
}

type SearchQuery struct {
	Term  string `json:"term,omitempty"`
	Limit int    `json:"limit,omitempty" jsonschema:"default=10"`
}

type NoteName struct {
	Name string `json:"name"`
}

type FlagValues struct {
	On    bool      `json:"on"`
	Ratio float64   `json:"ratio"`
	When  time.Time `json:"when"`
}

// resourceServer registers one resource or template per result shape and
// error path.
func resourceServer(t *testing.T) *fastmcp.Server {
	s := newServer()
	s.Resource("text://plain", func() string { return "hello" })
	s.Resource("text://markdown", func() (string, error) { return "# hi", nil }, fastmcp.MIMEType("text/markdown"))
	s.Resource("blob://png", func() []byte { return pngHeader })
	s.Resource("blob://typed", func() ([]byte, error) { return []byte{1, 2, 3}, nil }, fastmcp.MIMEType("application/x-raw"))
	s.Resource("blob://empty", func() []byte { return nil })
	s.Resource("blob://text", func() []byte { return []byte("hello") })
	s.Resource("json://profile", func(ctx context.Context) (UserProfile, error) { return UserProfile{ID: 1, Name: "Ada"}, nil })
	s.Resource("json://raw", func() json.RawMessage { return json.RawMessage(`{"raw":true}`) })
	s.Resource("contents://one", func() fastmcp.ResourceContents {
		return fastmcp.ResourceContents{Text: "one"}
	}, fastmcp.MIMEType("text/x-one"))
	s.Resource("contents://many", func() []*fastmcp.ResourceContents {
		return []*fastmcp.ResourceContents{
			{URI: "contents://many/a", MIMEType: "text/plain", Text: "a"},
			nil,
			{URI: "contents://many/b", Blob: []byte("b")},
		}
	})
	s.Resource("dynamic://any", func(ctx *fastmcp.Context) (any, error) { return "dynamic text", nil })
	s.Resource("dynamic://nil", func() any { return nil })
	s.Resource("error://plain", func() (string, error) { return "", errors.New("disk on fire") })
	s.Resource("error://notexist", func() (string, error) { return "", fmt.Errorf("opening: %w", fs.ErrNotExist) })
	s.Resource("error://coded", func() (string, error) { return "", fmt.Errorf("%w: not today", protocol.ErrInvalidParams) })
	s.Resource("error://panic", func() string { panic("boom") })

	s.Resource("users://me/profile", func() UserProfile { return UserProfile{ID: 0, Name: "me"} })
	s.Resource("users://{id}/profile", func(ctx *fastmcp.Context, in UserRef) (UserProfile, error) {
		if in.ID == 404 {
			return UserProfile{}, fmt.Errorf("user %d: %w", in.ID, protocol.ErrResourceNotFound)
		}
		return UserProfile{ID: in.ID, Name: fmt.Sprint("user ", in.ID)}, nil
	}, fastmcp.Description("A user's profile"))
	s.Resource("notes://{name}", func(in NoteName) string { return "note " + in.Name })
	s.Resource("file:///{+path}", func(in FilePath) string { return "file " + in.Path })
	s.Resource("open:///{+path}", func(in FilePath) string { return "open " + in.Path }, fastmcp.AllowDotDot())
	s.Resource("seg://x{/path*}", func(in PathSegments) string { return strings.Join(in.Path, "|") })
	s.Resource("joined://x{/path*}", func(in FilePath) string { return in.Path })
	s.Resource("search://q{?term,limit}", func(in SearchQuery) string { return fmt.Sprintf("%q %d", in.Term, in.Limit) })
	s.Resource("flags://{on}/{ratio}/{when}", func(in *FlagValues) string {
		return fmt.Sprint(in.On, in.Ratio, in.When.Year())
	})
	// Registration order decides between templates that match the same URI;
	// a template whose variables do not bind yields to the next.
	s.Resource("order://{name}", func(in NoteName) string { return "first " + in.Name })
	s.Resource("order://{id}", func(in UserRef) string { return "never" })
	s.Resource("num://{id}", func(in UserRef) string { return fmt.Sprint("number ", in.ID) })
	s.Resource("num://{name}", func(in NoteName) string { return "name " + in.Name })
	return s
}

func TestResourceRead(t *testing.T) {
	t.Parallel()
	s := resourceServer(t)
	ok := []struct{ uri, want string }{
		{"text://plain", `[{"uri":"text://plain","mimeType":"text/plain","text":"hello"}]`},
		{"text://markdown", `[{"uri":"text://markdown","mimeType":"text/markdown","text":"# hi"}]`},
		{"blob://png", `[{"uri":"blob://png","mimeType":"image/png","blob":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"}]`},
		{"blob://typed", `[{"uri":"blob://typed","mimeType":"application/x-raw","blob":"AQID"}]`},
		{"blob://empty", `[{"uri":"blob://empty","mimeType":"application/octet-stream","blob":""}]`},
		{"blob://text", `[{"uri":"blob://text","mimeType":"text/plain; charset=utf-8","blob":"aGVsbG8="}]`},
		{"json://profile", `[{"uri":"json://profile","mimeType":"application/json","text":"{\"id\":1,\"name\":\"Ada\"}"}]`},
		{"json://raw", `[{"uri":"json://raw","mimeType":"application/json","text":"{\"raw\":true}"}]`},
		{"contents://one", `[{"uri":"contents://one","mimeType":"text/x-one","text":"one"}]`},
		{"contents://many", `[{"uri":"contents://many/a","mimeType":"text/plain","text":"a"},{"uri":"contents://many/b","blob":"Yg=="}]`},
		{"dynamic://any", `[{"uri":"dynamic://any","mimeType":"text/plain","text":"dynamic text"}]`},
		// Static resources come before templates.
		{"users://me/profile", `[{"uri":"users://me/profile","mimeType":"application/json","text":"{\"id\":0,\"name\":\"me\"}"}]`},
		{"users://42/profile", `[{"uri":"users://42/profile","mimeType":"application/json","text":"{\"id\":42,\"name\":\"user 42\"}"}]`},
		{"notes://hello%20world", `[{"uri":"notes://hello%20world","mimeType":"text/plain","text":"note hello world"}]`},
		{"notes://café", `[{"uri":"notes://café","mimeType":"text/plain","text":"note café"}]`},
		{"file:///docs/a.txt", `[{"uri":"file:///docs/a.txt","mimeType":"text/plain","text":"file docs/a.txt"}]`},
		{"open:///a/../b", `[{"uri":"open:///a/../b","mimeType":"text/plain","text":"open a/../b"}]`},
		{"seg://x/a/b/c", `[{"uri":"seg://x/a/b/c","mimeType":"text/plain","text":"a|b|c"}]`},
		{"joined://x/a/b/c", `[{"uri":"joined://x/a/b/c","mimeType":"text/plain","text":"a/b/c"}]`},
		{"search://q?term=go&limit=5", `[{"uri":"search://q?term=go&limit=5","mimeType":"text/plain","text":"\"go\" 5"}]`},
		{"search://q", `[{"uri":"search://q","mimeType":"text/plain","text":"\"\" 10"}]`},
		{"flags://true/0.5/2024-05-01T00%3A00%3A00Z", `[{"uri":"flags://true/0.5/2024-05-01T00%3A00%3A00Z","mimeType":"text/plain","text":"true 0.5 2024"}]`},
		{"order://x", `[{"uri":"order://x","mimeType":"text/plain","text":"first x"}]`},
		{"num://7", `[{"uri":"num://7","mimeType":"text/plain","text":"number 7"}]`},
		{"num://seven", `[{"uri":"num://seven","mimeType":"text/plain","text":"name seven"}]`},
	}
	bad := []struct {
		uri      string
		notFound bool
		code     int64
		msg      string
	}{
		{uri: "nope://x", notFound: true},
		{uri: "users://404/profile", notFound: true},
		{uri: "error://notexist", notFound: true},
		{uri: "users://0/profile", code: protocol.CodeInvalidParams, msg: "id: must be >= 1"},
		{uri: "users://abc/profile", code: protocol.CodeInvalidParams, msg: `id: must be integer, got "abc"`},
		{uri: "file:///a/../../etc/passwd", code: protocol.CodeInvalidParams, msg: `path: must not have a ".." path segment`},
		{uri: "file:///a/%2E%2E/b", code: protocol.CodeInvalidParams, msg: `".." path segment`},
		{uri: "flags://maybe/x/y", code: protocol.CodeInvalidParams, msg: `on: must be boolean, got "maybe"; ratio: must be number, got "x"; when:`},
		{uri: "error://plain", code: protocol.CodeInternalError, msg: "disk on fire"},
		{uri: "error://coded", code: protocol.CodeInvalidParams, msg: "not today"},
		{uri: "error://panic", code: protocol.CodeInternalError, msg: "the resource handler for error://panic failed"},
		{uri: "dynamic://nil", code: protocol.CodeInternalError, msg: "returned nil"},
	}
	revisions(t, s, func(t *testing.T, c *client.Client) {
		for _, tc := range ok {
			t.Run(tc.uri, func(t *testing.T) {
				t.Parallel()
				res, err := c.ReadResource(ctxT(t), tc.uri)
				if err != nil {
					t.Fatal(err)
				}
				if got := contentsJSON(t, res.Contents); got != tc.want {
					t.Fatalf("contents:\n got %s\nwant %s", got, tc.want)
				}
			})
		}
		for _, tc := range bad {
			t.Run(tc.uri, func(t *testing.T) {
				t.Parallel()
				_, err := c.ReadResource(ctxT(t), tc.uri)
				perr := wireError(t, err)
				if tc.notFound {
					want := protocol.ErrResourceNotFound
					if c.Era() == protocol.Modern {
						want = protocol.ErrInvalidParams // SEP-2164
					}
					if !errors.Is(err, want) || perr.Message != "Resource not found" || string(perr.Data) != `{"uri":"`+tc.uri+`"}` {
						t.Fatalf("err = %d %q data %s, want %d Resource not found", perr.Code, perr.Message, perr.Data, want.Code)
					}
					return
				}
				if perr.Code != tc.code || !strings.Contains(perr.Message, tc.msg) {
					t.Fatalf("err = %d %q, want %d containing %q", perr.Code, perr.Message, tc.code, tc.msg)
				}
			})
		}
	})
}

func TestResourceReadBadParams(t *testing.T) {
	t.Parallel()
	s := resourceServer(t)
	c := connect(t, s, legacyRevision)
	for _, params := range []string{`{}`, `{"uri":""}`, `{"uri":5}`, `[]`} {
		err := c.Call(ctxT(t), protocol.MethodResourcesRead, json.RawMessage(params), nil)
		if !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("resources/read %s: err = %v, want invalid params", params, err)
		}
	}
}

func TestResourceRegistrationErrors(t *testing.T) {
	t.Parallel()
	str := func() string { return "" }
	for _, tc := range []struct {
		name string
		uri  string
		fn   any
		opts []fastmcp.ResourceOption
		err  string
	}{
		{"empty URI", "", str, nil, "resource URI is empty"},
		{"no scheme", "notes.txt", str, nil, "the URI has no scheme"},
		{"nil handler", "x://a", nil, nil, "handler is nil"},
		{"static with argument", "x://a", func(in NoteName) string { return "" }, nil, "takes an argument"},
		{"only an error", "x://a", func() error { return nil }, nil, "returns only an error"},
		{"bad template", "x://{a", str, nil, "not a valid RFC 6570 URI template"},
		{"repeated variable", "x://{a}/{a}", func(in NoteName) string { return "" }, nil, `variable "a" appears more than once`},
		{"template without argument", "x://{name}", str, nil, "takes no argument struct"},
		{"template with map", "x://{name}", func(in map[string]any) string { return "" }, nil, "takes no argument struct"},
		{"variable without field", "x://{name}/{id}", func(in NoteName) string { return "" }, nil, `variable "id" has no field in fastmcp_test.NoteName: add a field tagged json:"id"`},
		{"field without variable", "x://{name}", func(in struct {
			Name string `json:"name"`
			ID   int    `json:"id"`
		}) string {
			return ""
		}, nil, `field "id" of struct { Name string "json:\"name\""; ID int "json:\"id\"" } is not a template variable: add {id} to the template`},
		{"field a URI cannot fill", "x://{p}", func(in struct {
			P UserProfile `json:"p"`
		}) string {
			return ""
		}, nil, `field "p"`},
		{"template returns only an error", "x://{name}", func(in NoteName) error { return nil }, nil, "returns only an error"},
		{"size on template", "x://{name}", func(in NoteName) string { return "" }, []fastmcp.ResourceOption{fastmcp.ResourceSize(3)}, "ResourceSize describes one resource"},
		{"priority out of range", "x://a", str, []fastmcp.ResourceOption{fastmcp.Priority(1.5)}, "Priority(1.5) is out of range"},
		{"completer for unknown variable", "x://{name}", func(in NoteName) string { return "" }, []fastmcp.ResourceOption{fastmcp.CompleteArg("id", fastmcp.Choices("a"))}, `the template has no variable "id"`},
		{"nil completer", "x://{name}", func(in NoteName) string { return "" }, []fastmcp.ResourceOption{fastmcp.CompleteArg("name", nil)}, "the completer is nil"},
		{"completer on static resource", "x://a", str, []fastmcp.ResourceOption{fastmcp.CompleteArg("a", fastmcp.Choices("a"))}, "CompleteArg needs a resource template"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer()
			err := registerErr(t, func() { s.Resource(tc.uri, tc.fn, tc.opts...) })
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Resource panicked with %v, want an error containing %q", err, tc.err)
			}
		})
	}
	t.Run("duplicates", func(t *testing.T) {
		t.Parallel()
		s := newServer()
		s.Resource("x://a", str)
		s.Resource("x://{name}", func(in NoteName) string { return "" })
		if err := registerErr(t, func() { s.Resource("x://a", str) }); err == nil || !strings.Contains(err.Error(), "already registered") {
			t.Fatalf("duplicate resource: %v", err)
		}
		if err := registerErr(t, func() { s.Resource("x://{name}", func(in NoteName) string { return "" }) }); err == nil || !strings.Contains(err.Error(), "already registered") {
			t.Fatalf("duplicate template: %v", err)
		}
		if !s.RemoveResource("x://a") || !s.RemoveResource("x://{name}") || s.RemoveResource("x://a") {
			t.Fatal("RemoveResource did not report what it removed")
		}
		if err := registerErr(t, func() { s.Resource("x://a", str) }); err != nil {
			t.Fatalf("re-adding a removed resource: %v", err)
		}
	})
}

func TestResourceLists(t *testing.T) {
	t.Parallel()
	s := newServer(fastmcp.PageSize(2))
	mod := time.Date(2025, 1, 12, 15, 0, 58, 0, time.FixedZone("CET", 3600))
	for _, uri := range []string{"x://e", "x://b", "x://d", "x://a", "x://c"} {
		s.Resource(uri, func() string { return uri })
	}
	s.Resource("y://full", func() []byte { return nil },
		fastmcp.ResourceName("full"), fastmcp.Title("Full"), fastmcp.Description("Everything set"),
		fastmcp.MIMEType("image/png"), fastmcp.ResourceSize(1234),
		fastmcp.Audience(protocol.RoleUser, protocol.RoleAssistant), fastmcp.Priority(0.5), fastmcp.LastModified(mod),
		fastmcp.Icons(protocol.Icon{Src: "https://example.com/i.png"}), fastmcp.Meta(protocol.Meta{"k": "v"}))
	for _, tmpl := range []string{"t://{name}/c", "t://{name}/a", "t://{name}/b"} {
		s.Resource(tmpl, func(in NoteName) string { return "" })
	}
	revisions(t, s, func(t *testing.T, c *client.Client) {
		ctx := ctxT(t)
		var uris []string
		for r, err := range c.Resources(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			uris = append(uris, r.URI)
			if r.URI == "y://full" {
				b, _ := protocol.Marshal(r)
				want := `{"uri":"y://full","name":"full","title":"Full","description":"Everything set","mimeType":"image/png",` +
					`"annotations":{"audience":["user","assistant"],"priority":0.5,"lastModified":"2025-01-12T14:00:58Z"},` +
					`"size":1234,"icons":[{"src":"https://example.com/i.png"}],"_meta":{"k":"v"}}`
				if string(b) != want {
					t.Errorf("resource:\n got %s\nwant %s", b, want)
				}
			} else if r.Name != r.URI || r.MIMEType != "text/plain" {
				t.Errorf("resource %s: name %q, mimeType %q; want the URI and text/plain", r.URI, r.Name, r.MIMEType)
			}
		}
		if want := []string{"x://a", "x://b", "x://c", "x://d", "x://e", "y://full"}; !slices.Equal(uris, want) {
			t.Fatalf("resources = %v, want %v", uris, want)
		}
		first, err := c.ListResources(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(first.Resources) != 2 || first.NextCursor == "" {
			t.Fatalf("first page: %d resources, cursor %q", len(first.Resources), first.NextCursor)
		}
		var tmpls []string
		for rt, err := range c.ResourceTemplates(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			tmpls = append(tmpls, rt.URITemplate)
		}
		if want := []string{"t://{name}/a", "t://{name}/b", "t://{name}/c"}; !slices.Equal(tmpls, want) {
			t.Fatalf("templates = %v, want %v", tmpls, want)
		}
		for _, list := range []func() error{
			func() error { _, err := c.ListResources(ctx, "bogus"); return err },
			func() error { _, err := c.ListResourceTemplates(ctx, "bogus"); return err },
		} {
			if err := list(); !errors.Is(err, protocol.ErrInvalidParams) {
				t.Errorf("invalid cursor: err = %v, want invalid params", err)
			}
		}
	})
}

func TestResourceCapabilitiesAndListChanged(t *testing.T) {
	t.Parallel()
	s := newServer()
	changed := make(chan string, 8)
	c := connect(t, s, legacyRevision, client.WithListChangedHandler(func(method string) { changed <- method }))
	if c.ServerCapabilities().Resources != nil {
		t.Fatal("resources capability declared before any resource")
	}
	s.Resource("x://a", func() string { return "a" })
	if got := recvT(t, changed); got != protocol.NotificationResourcesListChanged {
		t.Fatalf("notification %q", got)
	}
	s.Resource("x://{name}", func(in NoteName) string { return "" })
	recvT(t, changed)
	s.RemoveResource("x://a")
	recvT(t, changed)
	res, err := c.ListResources(ctxT(t), "")
	if err != nil || len(res.Resources) != 0 {
		t.Fatalf("after removal: %v, %v", res, err)
	}
	// A new connection sees the capabilities.
	caps := connect(t, s, legacyRevision).ServerCapabilities()
	if caps.Resources == nil || !caps.Resources.Subscribe || !caps.Resources.ListChanged || caps.Completions == nil {
		t.Fatalf("capabilities = %+v", caps)
	}
}

// updates records the URIs a callback is given.
type updates struct {
	mu   sync.Mutex
	uris []string
	ch   chan string
}

func newUpdates() *updates { return &updates{ch: make(chan string, 16)} }

func (u *updates) fn(uri string) {
	u.mu.Lock()
	u.uris = append(u.uris, uri)
	u.mu.Unlock()
	u.ch <- uri
}

func (u *updates) all() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Clone(u.uris)
}

func TestSubscriptions(t *testing.T) {
	t.Parallel()
	s := newServer()
	for _, uri := range []string{"x://a", "x://b", "x://c"} {
		s.Resource(uri, func() string { return uri })
	}
	s.Resource("users://{id}/profile", func(in UserRef) string { return "" })
	ctx := ctxT(t)
	all1 := newUpdates()
	c1 := connect(t, s, legacyRevision, client.WithResourceUpdatedHandler(all1.fn))
	c2 := connect(t, s, legacyRevision)
	a1, c1c, b2 := newUpdates(), newUpdates(), newUpdates()
	if err := c1.Subscribe(ctx, "x://a", a1.fn); err != nil {
		t.Fatal(err)
	}
	if err := c1.Subscribe(ctx, "x://c", c1c.fn); err != nil {
		t.Fatal(err)
	}
	if err := c2.Subscribe(ctx, "x://b", b2.fn); err != nil {
		t.Fatal(err)
	}
	// Template instances can be subscribed to; unknown URIs cannot.
	if err := c2.Subscribe(ctx, "users://7/profile", nil); err != nil {
		t.Fatal(err)
	}
	if err := c2.Subscribe(ctx, "x://nope", b2.fn); !errors.Is(err, protocol.ErrResourceNotFound) {
		t.Fatalf("subscribing to an unknown URI: %v", err)
	}

	if err := s.NotifyResourceUpdated(ctx, "x://a"); err != nil {
		t.Fatal(err)
	}
	if got := <-a1.ch; got != "x://a" {
		t.Fatalf("c1 got %q", got)
	}
	if got := <-all1.ch; got != "x://a" {
		t.Fatalf("WithResourceUpdatedHandler got %q", got)
	}
	// Notifications on one session arrive in order: had c2 been sent x://a,
	// it would have arrived before x://b.
	s.NotifyResourceUpdated(ctx, "x://b")
	<-b2.ch
	if got := b2.all(); !slices.Equal(got, []string{"x://b"}) {
		t.Fatalf("c2 got %v, want only x://b", got)
	}

	// After Unsubscribe, c1 hears no more of x://a.
	if err := c1.Unsubscribe(ctx, "x://a"); err != nil {
		t.Fatal(err)
	}
	s.NotifyResourceUpdated(ctx, "x://a")
	s.NotifyResourceUpdated(ctx, "x://c")
	<-c1c.ch
	// The subscription's callback runs before WithResourceUpdatedHandler's:
	// wait for the latter too. Had x://a been delivered, it would come first.
	if got := <-all1.ch; got != "x://c" {
		t.Fatalf("WithResourceUpdatedHandler got %q after unsubscribing from x://a, want x://c", got)
	}
	if got := all1.all(); !slices.Equal(got, []string{"x://a", "x://c"}) {
		t.Fatalf("c1 got %v after unsubscribing from x://a", got)
	}
	if got := a1.all(); !slices.Equal(got, []string{"x://a"}) {
		t.Fatalf("x://a callback got %v", got)
	}
	// Unsubscribing from something never subscribed to is fine.
	if err := c1.Unsubscribe(ctx, "x://b"); err != nil {
		t.Fatal(err)
	}
	// A closed session is skipped.
	c2.Close()
	if err := s.NotifyResourceUpdated(ctx, "x://b"); err != nil {
		t.Fatalf("notifying a closed session: %v", err)
	}
}

func TestSubscriptionsModern(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("x://a", func() string { return "a" })
	s.Resource("x://b", func() string { return "b" })
	updates := newUpdates()
	c := connect(t, s, client.WithProtocolVersion(protocol.Version20260728))
	// 2026-07-28 has no resources/subscribe: the client listens instead.
	if err := c.Subscribe(ctxT(t), "x://a", updates.fn); err != nil {
		t.Fatalf("Subscribe on 2026-07-28: %v", err)
	}
	if err := s.NotifyResourceUpdated(ctxT(t), "x://b"); err != nil {
		t.Fatal(err)
	}
	if err := s.NotifyResourceUpdated(ctxT(t), "x://a"); err != nil {
		t.Fatal(err)
	}
	if got := <-updates.ch; got != "x://a" {
		t.Fatalf("update for %q, want x://a only", got)
	}
	if err := c.Unsubscribe(ctxT(t), "x://a"); err != nil {
		t.Fatalf("Unsubscribe on 2026-07-28: %v", err)
	}
	// The server refuses the legacy methods on modern requests.
	if err := c.Call(ctxT(t), protocol.MethodResourcesSubscribe, &protocol.SubscribeParams{URI: "x://a"}, nil); !errors.Is(err, protocol.ErrMethodNotFound) {
		t.Fatalf("resources/subscribe on 2026-07-28: %v", err)
	}
}

func TestContextReadResource(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("x://a", func() string { return "A" })
	s.Resource("users://{id}/profile", func(in UserRef) UserProfile { return UserProfile{ID: in.ID} })
	s.Resource("x://combined", func(ctx *fastmcp.Context) (string, error) {
		var parts []string
		for _, uri := range []string{"x://a", "users://3/profile"} {
			contents, err := ctx.ReadResource(uri)
			if err != nil {
				return "", err
			}
			parts = append(parts, contents[0].Text)
		}
		if _, err := ctx.ReadResource("x://missing"); !errors.Is(err, protocol.ErrResourceNotFound) {
			return "", fmt.Errorf("reading a missing resource: %v", err)
		}
		return strings.Join(parts, " + "), nil
	})
	s.Resource("x://broken", func(ctx *fastmcp.Context) ([]fastmcp.ResourceContents, error) {
		return ctx.ReadResource("x://missing")
	})
	s.Resource("x://loop", func(ctx *fastmcp.Context) ([]fastmcp.ResourceContents, error) {
		return ctx.ReadResource("x://loop")
	})
	revisions(t, s, func(t *testing.T, c *client.Client) {
		res, err := c.ReadResource(ctxT(t), "x://combined")
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Contents[0].Text; got != `A + {"id":3,"name":""}` {
			t.Fatalf("combined = %q", got)
		}
		_, err = c.ReadResource(ctxT(t), "x://broken")
		if perr := wireError(t, err); perr.Message != "Resource not found" {
			t.Fatalf("broken: %v", err)
		}
		_, err = c.ReadResource(ctxT(t), "x://loop")
		if perr := wireError(t, err); !strings.Contains(perr.Message, "more than 16 deep") {
			t.Fatalf("loop: %v", err)
		}
	})
}

func TestLoggingLevel(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.Resource("x://chatty", func(ctx *fastmcp.Context) string {
		ctx.Debug("debug")
		ctx.Info("info")
		ctx.Warning("warning")
		ctx.Error("error")
		return "done"
	})
	var mu sync.Mutex
	var got []string
	c := connect(t, s, legacyRevision, client.WithLogHandler(func(m *protocol.LoggingMessageParams) {
		mu.Lock()
		got = append(got, string(m.Level))
		mu.Unlock()
	}))
	read := func() []string {
		t.Helper()
		mu.Lock()
		got = nil
		mu.Unlock()
		// Log notifications are written before the response, and WithLogHandler runs
		// before the response is delivered.
		if _, err := c.ReadResource(ctxT(t), "x://chatty"); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
	if l := read(); !slices.Equal(l, []string{"debug", "info", "warning", "error"}) {
		t.Fatalf("default level: %v", l)
	}
	if err := c.SetLogLevel(ctxT(t), protocol.LevelWarning); err != nil {
		t.Fatal(err)
	}
	if l := read(); !slices.Equal(l, []string{"warning", "error"}) {
		t.Fatalf("at warning: %v", l)
	}
	if err := c.SetLogLevel(ctxT(t), "loud"); !errors.Is(err, protocol.ErrInvalidParams) {
		t.Fatalf("invalid level: %v", err)
	}
	// 2026-07-28 has no logging/setLevel: the level rides in _meta.
	m := connect(t, s, client.WithProtocolVersion(protocol.Version20260728))
	if err := m.SetLogLevel(ctxT(t), protocol.LevelInfo); !errors.Is(err, protocol.ErrMethodNotFound) {
		t.Fatalf("SetLogLevel on 2026-07-28: %v", err)
	}
}
