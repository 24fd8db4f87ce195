package openapi_test

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/internal/prismpeer"
	"github.com/fastmcp-go/fastmcp/openapi"
)

// prismCall is one call of a generated tool: valid arguments, which Prism
// (validating every request against the document) must accept, and invalid
// ones, which our validation must refuse before any request, naming want
// (an operation without parameters has no invalid arguments: invalid is
// empty).
type prismCall struct {
	valid   string
	invalid string
	want    string // in the refusal of invalid
}

// prismCases cover every operation of the two documents.
var prismCases = map[string]map[string]prismCall{
	"testdata/petstore.yaml": {
		"listPets":    {`{"limit":20}`, `{"limit":101}`, "limit"},
		"createPets":  {`{"id":7,"name":"Rex","tag":"dog"}`, `{"id":7}`, "name"},
		"showPetById": {`{"petId":"7"}`, `{"petId":7}`, "petId"},
		"deletePet":   {`{"petId":"7"}`, `{}`, "petId"},
	},
	"testdata/library31.yaml": {
		"listBooks":  {`{"genre":["fiction","poetry"],"year":[1900,1950],"limit":5}`, `{"genre":["cooking"]}`, "genre"},
		"addBook":    {`{"title":"Emma","subtitle":null,"year":1815}`, `{"title":"Emma","year":0}`, "year"},
		"getBook":    {`{"bookId":1,"X-Request-Id":"req-1","session":"abc"}`, `{"bookId":1,"X-Request-Id":"NOT VALID"}`, "X-Request-Id"},
		"getCover":   {`{"bookId":1}`, `{"bookId":0}`, "bookId"},
		"getSummary": {`{"bookId":1}`, `{"bookId":"one"}`, "bookId"},
		"getShelf":   {`{"shelf":"sci-fi & fantasy/2?#"}`, `{"shelf":""}`, "shelf"},
		"getRoom":    {`{"room":"reading"}`, `{"room":""}`, "room"},
		"getFloor":   {`{"floor":2}`, `{"floor":-1}`, "floor"},
		"getStats":   {`{}`, "", ""}, // no argument can be wrong
		"search":     {`{"words":["dune","desert"],"authors":["Herbert","Le Guin"],"filter":{"language":"en","available":true}}`, `{"filter":{"available":"yes"}}`, "filter.available"},
		"addMember":  {`{"body":{"name":"Ada","email":"ada@example.com","age":36}}`, `{"body":{"name":"Ada","email":"not an email"}}`, "email"},
		"putPhoto":   {`{"memberId":7,"body":{"caption":"me","photo":"iVBORw0KGgo="}}`, `{"memberId":7,"body":{"caption":"me"}}`, "photo"},
		"putNote":    {`{"memberId":7,"body":"likes poetry"}`, `{"memberId":7,"body":"` + strings.Repeat("n", 201) + `"}`, "body"},
		"putCard":    {`{"memberId":7,"body":"AAECAwQ="}`, `{"body":"AAECAwQ="}`, "memberId"},
		"addLoans":   {`{"body":[{"bookId":1,"memberId":7}]}`, `{"body":[]}`, "body"},
	},
}

// TestPrism: every tool generated from the Petstore (3.0) and a 3.1
// document, served by Stoplight Prism as a mock that validates every
// request against the document: called with valid arguments, the request
// the bridge builds passes Prism's validation (no violation, not a 422);
// called with invalid ones, our validation refuses them and no request
// reaches Prism.
func TestPrism(t *testing.T) {
	for path, cases := range prismCases {
		t.Run(path, func(t *testing.T) {
			prism := prismpeer.Start(t, path)
			d, err := openapi.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := fastmcp.New("prism", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
			comps, err := openapi.Register(s, d, openapi.Config{BaseURL: prism.URL})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, c := range comps {
				names = append(names, c.Name)
			}
			for name := range cases {
				if !slices.Contains(names, name) {
					t.Errorf("no tool %s (tools: %v)", name, names)
				}
			}
			c := fastmcptest.NewClient(t, s)
			seen := 0
			for _, name := range names {
				tc, ok := cases[name]
				if !ok {
					t.Errorf("tool %s is not called by this test: add a case", name)
					continue
				}
				res := call(t, c, name, tc.valid)
				seen++
				rs := prism.WaitRequests(t, seen)
				if last := rs[len(rs)-1]; res.IsError || len(last.Violations) > 0 {
					t.Errorf("%s %s: isError %v %q; prism saw %s %s with violations %q", name, tc.valid, res.IsError, res.Text(), last.Method, last.Path, last.Violations)
				}
				if tc.invalid == "" {
					continue
				}
				res = call(t, c, name, tc.invalid)
				if !res.IsError || !strings.Contains(res.Text(), "invalid arguments for tool "+name) || !strings.Contains(res.Text(), tc.want) {
					t.Errorf("%s %s: got isError %v %q, want our refusal naming %s", name, tc.invalid, res.IsError, res.Text(), tc.want)
				}
				if n := len(prism.Requests()); n != seen {
					t.Errorf("%s %s: prism saw %d requests, want %d: the invalid call reached it", name, tc.invalid, n, seen)
				}
			}
		})
	}
}

func call(t *testing.T, c *client.Client, name, args string) *client.ToolResult {
	t.Helper()
	res, err := c.CallTool(t.Context(), name, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return res
}

// TestPrismResources: operations the route map makes a resource and
// resource templates are read through Prism, which accepts the requests.
func TestPrismResources(t *testing.T) {
	const path = "testdata/library31.yaml"
	prism := prismpeer.Start(t, path)
	d, err := openapi.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := fastmcp.New("prism", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)))
	comps, err := openapi.Register(s, d, openapi.Config{BaseURL: prism.URL, ResourceScheme: "library", Routes: []openapi.Route{
		{Methods: []string{"GET"}, Kind: openapi.Resource},
		{Methods: []string{"GET"}, Pattern: `^/books`, Kind: openapi.ResourceTemplate},
		{Methods: []string{"GET"}, Kind: openapi.Exclude}, // getBook: its header and cookie make it no template
	}})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, comp := range comps {
		if comp.Kind != openapi.Tool {
			uris = append(uris, comp.Kind.String()+" "+comp.Name)
		}
	}
	slices.Sort(uris)
	want := []string{
		"resource library:///stats",
		"resource template library:///books/{bookId}/cover",
		"resource template library:///books/{bookId}/summary",
		"resource template library:///books{?genre,year,limit}",
	}
	if !slices.Equal(uris, want) {
		t.Fatalf("resources:\n%s\nwant\n%s", strings.Join(uris, "\n"), strings.Join(want, "\n"))
	}
	c := fastmcptest.NewClient(t, s)
	for i, uri := range []string{"library:///stats", "library:///books/1/summary", "library:///books?genre=poetry&limit=3", "library:///books/1/cover"} {
		res, err := c.ReadResource(t.Context(), uri)
		if err != nil || len(res.Contents) != 1 {
			t.Fatalf("read %s: %+v %v", uri, res, err)
		}
		rs := prism.WaitRequests(t, i+1)
		if v := rs[i].Violations; len(v) > 0 {
			t.Errorf("read %s: prism saw %s %s with violations %q", uri, rs[i].Method, rs[i].Path, v)
		}
	}
	if _, err := c.ReadResource(t.Context(), "library:///books/0"); err == nil {
		t.Error("a template read with bookId 0 (minimum 1) was not refused")
	}
}
