package openapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
)

// TestOpenAPI31 loads a 3.1 document (type arrays, const, examples,
// numeric exclusiveMinimum, a recursive schema) and calls its tools.
func TestOpenAPI31(t *testing.T) {
	d := readDoc(t, "pets31.yaml")
	if d.Version() != "3.1.0" {
		t.Fatalf("Version() = %q", d.Version())
	}
	c, rec := serve(t, d, Config{})
	rec.respond = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "GET" && r.URL.Path == "/v1/pets":
			io.WriteString(w, `[{"id":1,"name":"Rex","kind":"dog"}]`)
		default:
			io.WriteString(w, `{"id":2,"name":"Fido","kind":"dog","tag":null}`)
		}
	}
	res := callTool(t, c, "listPets", nil)
	var list struct {
		Result []map[string]any `json:"result"`
	}
	if err := res.Structured(&list); err != nil || len(list.Result) != 1 || list.Result[0]["name"] != "Rex" {
		t.Fatalf("listPets structured = %s (%v)", res.StructuredContent, err)
	}
	if res.Text() != `[{"id":1,"name":"Rex","kind":"dog"}]` {
		t.Errorf("listPets text = %q", res.Text())
	}
	res = callTool(t, c, "getPet", map[string]any{"petId": 2, "verbose": nil})
	if res.IsError || !strings.Contains(string(res.StructuredContent), `"Fido"`) {
		t.Fatalf("getPet = %v %s", res.IsError, res.StructuredContent)
	}
	if q := rec.last(t).Query; q != "" {
		t.Errorf("query %q", q)
	}
	// exclusiveMinimum 0 and const are enforced before any request.
	n := rec.count()
	for _, bad := range []struct {
		tool string
		args map[string]any
	}{
		{"getPet", map[string]any{"petId": 0}},
		{"createPet", map[string]any{"name": "x", "kind": "cat"}},
		{"createPet", map[string]any{"kind": "dog"}},
	} {
		_, err := c.CallTool(context.Background(), bad.tool, bad.args)
		if res, ok := errorOf(err, c, bad.tool, bad.args); !ok {
			t.Errorf("%s %v accepted: %v", bad.tool, bad.args, res)
		}
	}
	if rec.count() != n {
		t.Errorf("invalid calls reached the API: %d requests", rec.count()-n)
	}
	res = callTool(t, c, "createPet", map[string]any{"name": "Fido", "kind": "dog", "parent": map[string]any{"name": "Rex", "kind": "dog"}})
	if res.IsError {
		t.Fatal(res.Text())
	}
	eq(t, rec.last(t).Body, `{"kind":"dog","name":"Fido","parent":{"kind":"dog","name":"Rex"}}`)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, r := range rec.reqs {
		if r.Invalid != nil {
			t.Errorf("%s %s?%s does not conform to the document: %v", r.Method, r.Path, r.Query, r.Invalid)
		}
	}
}

// errorOf reports whether a call was refused (a protocol error or an
// isError result).
func errorOf(err error, c *client.Client, tool string, args map[string]any) (string, bool) {
	if err != nil {
		return err.Error(), true
	}
	res, _ := c.CallTool(context.Background(), tool, args)
	if res != nil && res.IsError {
		return res.Text(), true
	}
	return fmt.Sprint(res), false
}

func TestResponses(t *testing.T) {
	c, rec := serve(t, readDoc(t, "styles.yaml"), Config{MaxResponseBytes: 64})
	respond := func(status int, ct, body string) {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		rec.respond = func(w http.ResponseWriter, r *http.Request) {
			if ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			w.WriteHeader(status)
			io.WriteString(w, body)
		}
	}
	respond(200, "application/json", `["a","b"]`)
	res := callTool(t, c, "query", nil)
	eq(t, string(res.StructuredContent), `{"result":["a","b"]}`)
	eq(t, res.Text(), `["a","b"]`)

	respond(200, "text/plain; charset=utf-8", "hello")
	res = callTool(t, c, "text", map[string]any{"body": "x"})
	eq(t, res.Text(), "hello")

	respond(200, "image/png", "\x89PNG")
	res = callTool(t, c, "raw", map[string]any{"body": ""})
	if img, ok := res.Content[0].(*fastmcp.ImageContent); !ok || string(img.Data) != "\x89PNG" || img.MIMEType != "image/png" {
		t.Errorf("image: %#v", res.Content[0])
	}

	respond(200, "application/pdf", "%PDF")
	res = callTool(t, c, "postList", map[string]any{"body": []any{}})
	if e, ok := res.Content[0].(*fastmcp.EmbeddedResource); !ok || string(e.Resource.Blob) != "%PDF" || e.Resource.MIMEType != "application/pdf" {
		t.Errorf("blob: %#v", res.Content[0])
	}

	respond(404, "application/json", `{"message":"no such item"}`)
	res = callTool(t, c, "getItem", map[string]any{"id": "x"})
	if !res.IsError || res.Text() != `HTTP 404: {"message":"no such item"}` {
		t.Errorf("404: %v %q", res.IsError, res.Text())
	}

	respond(500, "text/plain", strings.Repeat("e", 100))
	res = callTool(t, c, "getItem", map[string]any{"id": "x"})
	if !res.IsError || !strings.HasPrefix(res.Text(), "HTTP 500: "+strings.Repeat("e", 64)+"\n[response cut at 64 bytes") {
		t.Errorf("500 cut: %v %q", res.IsError, res.Text())
	}

	respond(200, "text/plain", strings.Repeat("t", 100))
	res = callTool(t, c, "text", map[string]any{"body": "x"})
	if res.IsError || !strings.Contains(res.Text(), "[response cut at 64 bytes") {
		t.Errorf("200 cut: %v %q", res.IsError, res.Text())
	}
}

// TestTransportFailure: a request that cannot be sent is a tool error
// saying so, never an answer made up.
func TestTransportFailure(t *testing.T) {
	api := httptest.NewServer(http.NotFoundHandler())
	url := api.URL
	api.Close() // nothing listens there any more
	s := fastmcp.New("api", "1")
	if _, err := Register(s, readDoc(t, "styles.yaml"), Config{BaseURL: url}); err != nil {
		t.Fatal(err)
	}
	c := fastmcptest.NewClient(t, s)
	res := callTool(t, c, "getItem", map[string]any{"id": "1"})
	if !res.IsError || !strings.Contains(res.Text(), "the request GET /items/{id} failed") {
		t.Errorf("got %v %q", res.IsError, res.Text())
	}
}

// TestCancellation: cancelling the MCP call cancels the HTTP request.
func TestCancellation(t *testing.T) {
	arrived := make(chan struct{})
	gone := make(chan struct{})
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
		close(gone)
	}))
	defer api.Close()
	s := fastmcp.New("api", "1")
	if _, err := Register(s, readDoc(t, "styles.yaml"), Config{BaseURL: api.URL}); err != nil {
		t.Fatal(err)
	}
	c := fastmcptest.NewClient(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, "getItem", map[string]any{"id": "1"})
		errc <- err
	}()
	<-arrived
	cancel()
	select {
	case <-gone:
	case <-time.After(30 * time.Second):
		t.Fatal("the API request was not cancelled")
	}
	<-errc
}

func TestRoutes(t *testing.T) {
	d := readDoc(t, "pets31.yaml")
	rec := &recorder{}
	rec.respond = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/pets/404" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"path":%q,"query":%q}`, r.URL.Path, r.URL.RawQuery)
	}
	api := httptest.NewServer(rec)
	defer api.Close()
	s := fastmcp.New("api", "1")
	comps, err := Register(s, d, Config{BaseURL: api.URL, Routes: []Route{
		{Tags: []string{"admin"}, Kind: Exclude},
		{Methods: []string{"get"}, Kind: Resource},
		{Methods: []string{"GET"}, Pattern: `^/pets/`, Kind: ResourceTemplate},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range comps {
		got = append(got, c.Kind.String()+" "+c.Name)
	}
	want := []string{"resource template openapi:///pets/{petId}{?verbose}", "resource openapi:///pets", "tool createPet"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("components\n got %q\nwant %q", got, want)
	}
	c := fastmcptest.NewClient(t, s)
	ctx := context.Background()
	r, err := c.ReadResource(ctx, "openapi:///pets")
	if err != nil || r.Contents[0].Text != `{"path":"/pets","query":""}` || r.Contents[0].MIMEType != "application/json" {
		t.Fatalf("read /pets: %v %+v", err, r)
	}
	r, err = c.ReadResource(ctx, "openapi:///pets/7?verbose=true")
	if err != nil || r.Contents[0].Text != `{"path":"/pets/7","query":"verbose=true"}` {
		t.Fatalf("read /pets/7: %v %+v", err, r)
	}
	if _, err = c.ReadResource(ctx, "openapi:///pets/404"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("read /pets/404: %v", err)
	}
	tools, err := c.ListTools(ctx, "")
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "createPet" {
		t.Fatalf("tools: %v %+v", err, tools)
	}
	ann := tools.Tools[0].Annotations
	if ann == nil || ann.OpenWorldHint == nil || !*ann.OpenWorldHint || ann.ReadOnlyHint != nil {
		t.Errorf("createPet annotations %+v", ann)
	}
}

// TestRegisterAllOrNothing: when one registration fails (a tool of that
// name exists), what Register had registered is removed again.
func TestRegisterAllOrNothing(t *testing.T) {
	s := fastmcp.New("api", "1")
	s.Tool("reset", func() (string, error) { return "mine", nil })
	_, err := Register(s, readDoc(t, "pets31.yaml"), Config{})
	if err == nil || !strings.Contains(err.Error(), "operation reset") {
		t.Fatalf("err = %v", err)
	}
	c := fastmcptest.NewClient(t, s)
	tools, err := c.ListTools(context.Background(), "")
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != "reset" {
		t.Fatalf("tools after a failed Register: %v %+v", err, tools)
	}
}

func TestNamesOverride(t *testing.T) {
	d := readDoc(t, "pets31.yaml")
	s := fastmcp.New("api", "1")
	comps, err := Register(s, d, Config{Prefix: "pets_", Names: map[string]string{"getPet": "fetch_pet"}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range comps {
		names = append(names, c.Name)
	}
	if want := []string{"pets_reset", "pets_listPets", "pets_createPet", "fetch_pet"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	for _, tc := range []struct {
		names map[string]string
		want  string
	}{
		{map[string]string{"getPet": "bad name!"}, `Names["getPet"] = "bad name!"`},
		{map[string]string{"getPet": "x", "listPets": "x"}, `Names["listPets"] = "x": another override (Names["getPet"]) has that name`},
		{map[string]string{"nope": "x"}, `Names["nope"]: the document has no such operation`},
	} {
		s := fastmcp.New("api", "1")
		_, err := Register(s, d, Config{Names: tc.names})
		if !errors.Is(err, ErrMapping) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Names %v: err = %v, want %q", tc.names, err, tc.want)
		}
	}
	// An override that takes a derived name: the derived one moves on.
	s = fastmcp.New("api", "1")
	comps, err = Register(s, d, Config{Names: map[string]string{"getPet": "listPets"}})
	if err != nil {
		t.Fatal(err)
	}
	names = names[:0]
	for _, c := range comps {
		names = append(names, c.Name)
	}
	if want := []string{"reset", "listPets_2", "createPet", "listPets"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
}

func TestNaming(t *testing.T) {
	long := strings.Repeat("a", 70)
	n := &namer{used: map[string]bool{}}
	got := []string{
		n.next(Operation{ID: "list pets!"}),
		n.next(Operation{ID: "list_pets_"}),
		n.next(Operation{ID: "list_pets_"}),
		n.next(Operation{Method: "GET", Path: "/pets/{petId}"}),
		n.next(Operation{ID: "ünï"}),
		n.next(Operation{ID: long}),
		n.next(Operation{ID: long + "b"}),
		n.next(Operation{ID: long}),
	}
	want := []string{"list_pets_", "list_pets__2", "list_pets__3", "get_pets_petId", "_n_"}
	if !slices.Equal(got[:5], want) {
		t.Errorf("names %q, want %q", got[:5], want)
	}
	for _, name := range got {
		if !validName(name) {
			t.Errorf("%q is not a valid tool name", name)
		}
	}
	if got[5] == got[6] || got[5] == got[7] || got[6] == got[7] || len(got[7]) != 64 {
		t.Errorf("long names %q", got[5:])
	}
}

func TestUnresolvedRef(t *testing.T) {
	doc := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      parameters: [{$ref: "#/components/parameters/Nope"}]
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Missing"}}}}
  /b:
    post:
      requestBody: {content: {application/json: {schema: {$ref: "other.yaml#/Pet"}}}}
      responses: {"200": {description: ok}}
`
	_, err := Parse([]byte(doc))
	var re *RefError
	if !errors.Is(err, ErrUnresolvedRef) || !errors.As(err, &re) {
		t.Fatalf("err = %v", err)
	}
	want := []string{"#/components/parameters/Nope", "#/components/schemas/Missing", "other.yaml#/Pet"}
	if !slices.Equal(re.Refs, want) {
		t.Errorf("Refs = %q, want %q", re.Refs, want)
	}
	// YAML mappings with number keys (responses: {200: ...}) are searched
	// and resolved like JSON's string keys.
	intKeys := "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        200: {$ref: '#/components/responses/Nope'}\n" +
		"  /b:\n    get:\n      responses:\n        200: {description: ok}\n        201: {$ref: '#/paths/~1b/get/responses/200'}\n"
	if _, err := Parse([]byte(intKeys)); !errors.As(err, &re) || !slices.Equal(re.Refs, []string{"#/components/responses/Nope"}) {
		t.Errorf("number keys: %v", err)
	}
	// From a file, the external reference is followed; a missing file is
	// named too.
	dir := t.TempDir()
	writeFile(t, dir+"/api.yaml", strings.Replace(doc, `{$ref: "#/components/parameters/Nope"}`, `{name: q, in: query, schema: {type: string}}`, 1)+
		`components: {schemas: {Missing: {type: object}}}`+"\n")
	_, err = ReadFile(dir + "/api.yaml")
	if !errors.As(err, &re) || !slices.Equal(re.Refs, []string{"other.yaml#/Pet"}) {
		t.Fatalf("missing file: %v", err)
	}
	writeFile(t, dir+"/other.yaml", "Pet: {type: object, properties: {name: {type: string}}}\n")
	d, err := ReadFile(dir + "/api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Register(fastmcp.New("x", "1"), d, Config{BaseURL: "http://127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
}

// TestForwardAuthorization: the MCP caller's Authorization header reaches
// the API only when Config.ForwardAuthorization is set; Headers and
// OperationHeaders always do.
func TestForwardAuthorization(t *testing.T) {
	for _, forward := range []bool{false, true} {
		t.Run(fmt.Sprint(forward), func(t *testing.T) {
			rec := &recorder{}
			api := httptest.NewServer(rec)
			defer api.Close()
			s := fastmcp.New("api", "1")
			_, err := Register(s, readDoc(t, "pets31.yaml"), Config{
				BaseURL:              api.URL,
				ForwardAuthorization: forward,
				Headers:              http.Header{"X-Api-Key": {"k1"}, "User-Agent": {"bridge"}},
				OperationHeaders:     map[string]http.Header{"reset": {"X-Api-Key": {"admin"}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			c := fastmcptest.NewHTTPClient(t, s, client.WithHTTPHeader(http.Header{"Authorization": {"Bearer caller-token"}}))
			callTool(t, c, "listPets", nil)
			h := rec.last(t).Header
			eq(t, h.Get("X-Api-Key"), "k1")
			eq(t, h.Get("User-Agent"), "bridge")
			want := ""
			if forward {
				want = "Bearer caller-token"
			}
			eq(t, h.Get("Authorization"), want)
			callTool(t, c, "reset", nil)
			eq(t, rec.last(t).Header.Get("X-Api-Key"), "admin")
		})
	}
}

var _ = json.Marshal

// TestFetch: a document fetched over HTTP has its relative references and
// its relative servers URL resolved against its own URL.
func TestFetch(t *testing.T) {
	mux := http.NewServeMux()
	var fetches atomic.Int32
	mux.HandleFunc("GET /specs/api.yaml", func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		io.WriteString(w, `openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: /api}]
paths:
  /things:
    get:
      operationId: things
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "schemas/thing.yaml#/Thing"}}}}
`)
	})
	mux.HandleFunc("GET /specs/schemas/thing.yaml", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "Thing: {type: object, properties: {name: {type: string}}}\n")
	})
	mux.HandleFunc("GET /api/things", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"name":"fetched"}`)
	})
	api := httptest.NewServer(mux)
	defer api.Close()
	d, err := Fetch(context.Background(), api.Client(), api.URL+"/specs/api.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("api", "1")
	if _, err := Register(s, d, Config{}); err != nil {
		t.Fatal(err)
	}
	c := fastmcptest.NewClient(t, s)
	res := callTool(t, c, "things", nil)
	eq(t, string(res.StructuredContent), `{"name":"fetched"}`)
	if n := fetches.Load(); n != 1 {
		t.Errorf("the document was fetched %d times", n)
	}
	if _, err := Fetch(context.Background(), nil, api.URL+"/specs/missing.yaml"); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("missing document: %v", err)
	}
	// Without Fetch's URL a relative server cannot be resolved.
	d2, err := Parse([]byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\nservers: [{url: /api}]\npaths: {/a: {get: {responses: {'204': {description: ok}}}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Register(fastmcp.New("x", "1"), d2, Config{}); !errors.Is(err, ErrMapping) || !strings.Contains(err.Error(), "relative") {
		t.Errorf("relative server: %v", err)
	}
}

// TestRefsStayHome: a document read from a file follows references to
// files only, and one fetched from a URL to its own origin only; the
// others are unresolved references, never requested.
func TestRefsStayHome(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, "Thing: {type: object}\n")
	}))
	defer other.Close()
	doc := `openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "` + other.URL + `/thing.yaml#/Thing"}}}}
`
	dir := t.TempDir()
	writeFile(t, dir+"/api.yaml", doc)
	_, err := ReadFile(dir + "/api.yaml")
	var re *RefError
	if !errors.As(err, &re) || len(re.Refs) != 1 || !strings.HasPrefix(re.Refs[0], other.URL) {
		t.Errorf("ReadFile: %v", err)
	}
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, doc) }))
	defer home.Close()
	_, err = Fetch(context.Background(), nil, home.URL+"/api.yaml")
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "own origin") {
		t.Errorf("Fetch: %v", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the other origin got %d requests", n)
	}
}

// TestToolDefinitions: title, description, annotations and schemas as
// clients list them.
func TestToolDefinitions(t *testing.T) {
	c, _ := serve(t, readDoc(t, "styles.yaml"), Config{})
	page, err := c.ListTools(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*client.Tool{}
	for _, tl := range page.Tools {
		tools[tl.Name] = tl
	}
	get, put := tools["getItem"], tools["putItem"]
	if get == nil || put == nil {
		t.Fatalf("tools %v", slices.Collect(maps.Keys(tools)))
	}
	eq(t, get.Title, "Get an item")
	eq(t, get.Description, "Get an item")
	eq(t, put.Description, "Deprecated.\n\nReplace an item\n\nReplaces the whole item.")
	if a := get.Annotations; a == nil || a.ReadOnlyHint == nil || !*a.ReadOnlyHint || a.OpenWorldHint != nil {
		t.Errorf("getItem annotations %+v", a)
	}
	if a := put.Annotations; a == nil || a.IdempotentHint == nil || !*a.IdempotentHint || a.OpenWorldHint == nil || !*a.OpenWorldHint {
		t.Errorf("putItem annotations %+v", a)
	}
	if !strings.Contains(string(get.InputSchema), `"description":"The item id"`) || get.OutputSchema == nil {
		t.Errorf("getItem schemas %s %s", get.InputSchema, get.OutputSchema)
	}
	if put.OutputSchema != nil {
		t.Errorf("putItem has no JSON response, yet an output schema %s", put.OutputSchema)
	}
}

// TestOperationServers: an operation's own servers (or its path's) win
// over the document's, and Config.BaseURL over all of them.
func TestOperationServers(t *testing.T) {
	var hits [3]atomic.Int32
	apis := make([]*httptest.Server, 3)
	for i := range apis {
		apis[i] = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits[i].Add(1)
			w.WriteHeader(http.StatusNoContent)
		}))
		defer apis[i].Close()
	}
	doc := fmt.Sprintf(`openapi: 3.0.3
info: {title: t, version: "1"}
servers: [{url: "%s"}]
paths:
  /doc:
    get: {operationId: onDoc, responses: {"204": {description: ok}}}
  /path:
    servers: [{url: "%s"}]
    get: {operationId: onPath, responses: {"204": {description: ok}}}
  /op:
    get:
      operationId: onOp
      servers: [{url: "{scheme}://%s", variables: {scheme: {default: http}}}]
      responses: {"204": {description: ok}}
`, apis[0].URL, apis[1].URL, strings.TrimPrefix(apis[2].URL, "http://"))
	d, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("api", "1")
	if _, err := Register(s, d, Config{}); err != nil {
		t.Fatal(err)
	}
	c := fastmcptest.NewClient(t, s)
	for _, name := range []string{"onDoc", "onPath", "onOp"} {
		if res := callTool(t, c, name, nil); res.IsError {
			t.Fatalf("%s: %s", name, res.Text())
		}
	}
	for i := range hits {
		if n := hits[i].Load(); n != 1 {
			t.Errorf("server %d got %d requests, want 1", i, n)
		}
	}
	s = fastmcp.New("api", "1")
	if _, err := Register(s, d, Config{BaseURL: apis[0].URL}); err != nil {
		t.Fatal(err)
	}
	c = fastmcptest.NewClient(t, s)
	callTool(t, c, "onOp", nil)
	if n := hits[0].Load(); n != 2 {
		t.Errorf("with BaseURL, the first server got %d requests, want 2", n)
	}
}
