package openapi

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// A recorded is one request the API under test received.
type recorded struct {
	Method, Path, RawPath, Query string
	Header                       http.Header
	Body                         string
	// Invalid is what kin-openapi's request validator (openapi3filter)
	// found wrong with the request, judged against the document.
	Invalid error
}

// recorder is an HTTP API that records every request and answers with
// what respond returns (default: 200 {"ok":true}).
type recorder struct {
	mu       sync.Mutex
	reqs     []recorded
	respond  func(w http.ResponseWriter, r *http.Request)
	validate func(r *http.Request) error
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var invalid error
	if rec.validate != nil {
		r.Body = io.NopCloser(bytes.NewReader(b))
		invalid = rec.validate(r)
	}
	rec.mu.Lock()
	rec.reqs = append(rec.reqs, recorded{r.Method, r.URL.Path, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Clone(), string(b), invalid})
	respond := rec.respond
	rec.mu.Unlock()
	if respond != nil {
		respond(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"ok":true}`)
}

func (rec *recorder) last(t *testing.T) recorded {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.reqs) == 0 {
		t.Fatal("the API got no request")
	}
	return rec.reqs[len(rec.reqs)-1]
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.reqs)
}

func readDoc(t *testing.T, name string) *Document {
	t.Helper()
	d, err := ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// serve registers d on a new server pointed at an httptest API and
// returns a client of it over the in-memory transport, and the recorder.
func serve(t *testing.T, d *Document, cfg Config) (*client.Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	api := httptest.NewServer(rec)
	t.Cleanup(api.Close)
	cfg.BaseURL = api.URL + "/v1"
	rec.validate = validator(t, d, cfg.BaseURL)
	s := fastmcp.New("api", "1")
	if _, err := Register(s, d, cfg); err != nil {
		t.Fatal(err)
	}
	return fastmcptest.NewClient(t, s), rec
}

// validator checks requests against d with kin-openapi's own request
// validator, served at base.
func validator(t *testing.T, d *Document, base string) func(*http.Request) error {
	t.Helper()
	d.t.Servers = openapi3.Servers{{URL: base}}
	router, err := legacy.NewRouter(d.t)
	if err != nil {
		t.Fatal(err)
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
	return func(r *http.Request) error {
		r.URL.Scheme, r.URL.Host = "http", r.Host // as the client addressed it
		route, params, err := router.FindRoute(r)
		if err != nil {
			return err
		}
		return openapi3filter.ValidateRequest(r.Context(), &openapi3filter.RequestValidationInput{
			Request: r, PathParams: params, Route: route, Options: opts,
		})
	}
}

func callTool(t *testing.T, c *client.Client, name string, args any) *client.ToolResult {
	t.Helper()
	res, err := c.CallTool(context.Background(), name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

func TestRequests(t *testing.T) {
	c, rec := serve(t, readDoc(t, "styles.yaml"), Config{})
	b64 := base64.StdEncoding.EncodeToString([]byte("\x89PNG bytes"))
	tests := []struct {
		tool  string
		args  map[string]any
		check func(t *testing.T, r recorded)
	}{
		{"getItem", map[string]any{"id": "a/b?c#d e", "fields": []any{"x", "y"}, "X-Trace": "t1", "session": "s 1;"}, func(t *testing.T, r recorded) {
			eq(t, r.Method, "GET")
			eq(t, r.RawPath, "/v1/items/a%2Fb%3Fc%23d%20e")
			eq(t, r.Query, "fields=x&fields=y")
			eq(t, r.Header.Get("X-Trace"), "t1")
			eq(t, r.Header.Get("Cookie"), "session=s%201%3B")
			eq(t, r.Header.Get("Accept"), "application/json")
		}},
		{"getItem", map[string]any{"id": ".."}, func(t *testing.T, r recorded) {
			eq(t, r.RawPath, "/v1/items/%2E%2E")
		}},
		{"label", map[string]any{"v": []any{"a", "b"}}, func(t *testing.T, r recorded) { eq(t, r.RawPath, "/v1/label/.a.b") }},
		{"matrix", map[string]any{"v": map[string]any{"a": "1", "b": "x y"}}, func(t *testing.T, r recorded) { eq(t, r.RawPath, "/v1/matrix/;v=a,1,b,x%20y") }},
		{"simple", map[string]any{"v": []any{"a", "b,c"}}, func(t *testing.T, r recorded) { eq(t, r.RawPath, "/v1/simple/a,b%2Cc") }},
		{"query", map[string]any{
			"form": []any{"a", "b c"}, "flat": []any{"x", "y"}, "space": []any{1, 2}, "pipe": []any{"p", "q"},
			"deep": map[string]any{"x": "1", "y": 2}, "obj": map[string]any{"p": "P", "q": "Q"}, "json": map[string]any{"k": "v"},
		}, func(t *testing.T, r recorded) {
			eq(t, r.Query, "form=a&form=b+c&flat=x,y&space=1%202&pipe=p|q&deep[x]=1&deep[y]=2&p=P&q=Q&json=%7B%22k%22%3A%22v%22%7D")
		}},
		{"putItem", map[string]any{"id_path": 7, "id_body": "i7", "name": "w", "price": nil, "children": []any{map[string]any{"name": "c"}}}, func(t *testing.T, r recorded) {
			eq(t, r.Method, "PUT")
			eq(t, r.Path, "/v1/items/7")
			eq(t, r.Header.Get("Content-Type"), "application/json")
			eq(t, r.Body, `{"children":[{"name":"c"}],"id":"i7","name":"w","price":null}`)
		}},
		{"form", map[string]any{"body": map[string]any{"name": "a b", "tags": []any{"x", "y"}}}, func(t *testing.T, r recorded) {
			eq(t, r.Header.Get("Content-Type"), "application/x-www-form-urlencoded")
			eq(t, r.Body, "name=a+b&tags=x&tags=y")
		}},
		{"upload", map[string]any{"body": map[string]any{"file": b64, "note": "hi", "meta": map[string]any{"a": 1}}}, func(t *testing.T, r recorded) {
			req, _ := http.NewRequest("POST", "/", strings.NewReader(r.Body))
			req.Header.Set("Content-Type", r.Header.Get("Content-Type"))
			if err := req.ParseMultipartForm(1 << 20); err != nil {
				t.Fatal(err)
			}
			f, fh, err := req.FormFile("file")
			if err != nil {
				t.Fatal(err)
			}
			data, _ := io.ReadAll(f)
			eq(t, string(data), "\x89PNG bytes")
			eq(t, fh.Header.Get("Content-Type"), "application/octet-stream")
			eq(t, req.FormValue("note"), "hi")
			eq(t, req.FormValue("meta"), `{"a":1}`)
		}},
		{"text", map[string]any{"body": "plain words"}, func(t *testing.T, r recorded) {
			eq(t, r.Header.Get("Content-Type"), "text/plain")
			eq(t, r.Body, "plain words")
		}},
		{"raw", map[string]any{"body": b64}, func(t *testing.T, r recorded) {
			eq(t, r.Header.Get("Content-Type"), "application/octet-stream")
			eq(t, r.Body, "\x89PNG bytes")
		}},
		{"postList", map[string]any{"body": []any{map[string]any{"name": "n"}}}, func(t *testing.T, r recorded) {
			eq(t, r.Body, `[{"name":"n"}]`)
		}},
		{"putLabels", map[string]any{"body": map[string]any{"env": "prod", "team": "a"}}, func(t *testing.T, r recorded) {
			eq(t, r.Body, `{"env":"prod","team":"a"}`)
		}},
		{"anything", map[string]any{"body": "free text"}, func(t *testing.T, r recorded) {
			eq(t, r.Header.Get("Content-Type"), "text/plain")
			eq(t, r.Body, "free text")
		}},
		{"clash", map[string]any{"id_path": "P", "id_query": "Q", "id_body": "B"}, func(t *testing.T, r recorded) {
			eq(t, r.Path, "/v1/clash/P")
			eq(t, r.Query, "id=Q")
			eq(t, r.Body, `{"id":"B"}`)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			n := rec.count()
			res := callTool(t, c, tt.tool, tt.args)
			if res.IsError {
				t.Fatalf("isError: %s", res.Text())
			}
			if rec.count() != n+1 {
				t.Fatalf("the API got %d requests, want 1", rec.count()-n)
			}
			r := rec.last(t)
			if r.Invalid != nil {
				t.Errorf("the request does not conform to the document: %v", r.Invalid)
			}
			tt.check(t, r)
		})
	}
}

func eq(t *testing.T, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
