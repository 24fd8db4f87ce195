package fastmcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// Profile is an elicitation form.
type Profile struct {
	Username string `json:"username" jsonschema:"description=User name"`
	Email    string `json:"email" jsonschema:"description=Email address,format=email"`
	Age      int    `json:"age,omitempty" jsonschema:"description=Age,default=30"`
}

func inputServer() *fastmcp.Server {
	s := newServer()
	s.Tool("sample", func(ctx *fastmcp.Context) (string, error) {
		res, err := ctx.Sample(&fastmcp.SamplingRequest{
			Messages:  []fastmcp.SamplingMessage{{Role: protocol.RoleUser, Content: protocol.SamplingContent{fastmcp.Text("hello?")}}},
			MaxTokens: 50,
		})
		if err != nil {
			return "", err
		}
		return "model said: " + res.Content[0].(*fastmcp.TextContent).Text, nil
	})
	s.Tool("elicit", func(ctx *fastmcp.Context) (string, error) {
		var p Profile
		action, err := ctx.Elicit("Who are you?", &p)
		if err != nil {
			return "", err
		}
		if action != fastmcp.ElicitAccept {
			return "action " + string(action), nil
		}
		return p.Username + " <" + p.Email + "> " + strings.Repeat("I", p.Age/10), nil
	})
	s.Tool("roots", func(ctx *fastmcp.Context) (string, error) {
		roots, err := ctx.ListRoots()
		if err != nil {
			return "", err
		}
		var uris []string
		for _, r := range roots {
			uris = append(uris, r.URI)
		}
		return strings.Join(uris, ","), nil
	})
	s.Tool("url", func(ctx *fastmcp.Context) (string, error) {
		e, err := ctx.ElicitURL("Sign in", "https://example.com/login")
		if err != nil {
			return "", err
		}
		if err := e.Complete(); err != nil {
			return "", err
		}
		return string(e.Action) + " " + e.ID, nil
	})
	return s
}

func TestServerToClientRequests(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		var sawSchema json.RawMessage
		c := connect(t, inputServer(), era,
			client.WithSampling(func(ctx context.Context, req *fastmcp.SamplingRequest) (*fastmcp.SamplingResult, error) {
				return &fastmcp.SamplingResult{Role: protocol.RoleAssistant, Model: "m", Content: protocol.SamplingContent{fastmcp.Text("hi " + req.Messages[0].Content[0].(*fastmcp.TextContent).Text)}}, nil
			}),
			client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
				sawSchema = req.RequestedSchema
				// age left out: the client fills its default (SEP-1034).
				return &client.ElicitResult{Action: "accept", Content: json.RawMessage(`{"username":"ada","email":"ada@example.com"}`)}, nil
			}),
			client.WithURLElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
				if req.URL != "https://example.com/login" || (req.ElicitationID == "") != modern {
					return nil, errors.New("bad url elicitation")
				}
				return &client.ElicitResult{Action: "accept"}, nil
			}),
			client.WithRoots(fastmcp.Root{URI: "file:///a"}, fastmcp.Root{URI: "file:///b"}),
		)
		for _, tc := range []struct{ tool, want string }{
			{"sample", "model said: hi hello?"},
			{"elicit", "ada <ada@example.com> III"},
			{"roots", "file:///a,file:///b"},
		} {
			res, err := c.CallTool(ctxT(t), tc.tool, nil)
			if err != nil {
				t.Fatalf("%s: %v", tc.tool, err)
			}
			if got := textOf(t, res); got != tc.want || res.IsError {
				t.Errorf("%s = %q (isError %v), want %q", tc.tool, got, res.IsError, tc.want)
			}
		}
		if !strings.Contains(string(sawSchema), `"default":30`) || !strings.Contains(string(sawSchema), `"format":"email"`) {
			t.Errorf("requested schema = %s", sawSchema)
		}
		res, err := c.CallTool(ctxT(t), "url", nil)
		if err != nil || !strings.HasPrefix(textOf(t, res), "accept") {
			t.Errorf("url elicitation: %v %v", res, err)
		}
	})
}

func TestClientWithoutCapabilities(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		c := connect(t, inputServer(), era)
		for _, tool := range []string{"sample", "elicit", "roots", "url"} {
			res, err := c.CallTool(ctxT(t), tool, nil)
			if modern {
				// 2026-07-28: MissingRequiredClientCapability naming what is needed.
				var perr *protocol.Error
				if !errors.As(err, &perr) || perr.Code != protocol.CodeMissingRequiredClientCapability || !strings.Contains(string(perr.Data), "requiredCapabilities") {
					t.Errorf("%s without capability: %v", tool, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
			if !res.IsError || !strings.Contains(textOf(t, res), "did not declare") {
				t.Errorf("%s without capability: %q (isError %v)", tool, textOf(t, res), res.IsError)
			}
		}
	})
}

func TestCapabilityErrorsMatch(t *testing.T) {
	t.Parallel()
	s := newServer()
	got := make(chan error, 3)
	s.Tool("probe", func(ctx *fastmcp.Context) string {
		_, err := ctx.Sample(&fastmcp.SamplingRequest{MaxTokens: 1})
		got <- err
		_, err = ctx.Elicit("x", &Profile{})
		got <- err
		_, err = ctx.ListRoots()
		got <- err
		return ""
	})
	c := connect(t, s, legacy)
	if _, err := c.CallTool(ctxT(t), "probe", nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []error{fastmcp.ErrSamplingUnsupported, fastmcp.ErrElicitationUnsupported, fastmcp.ErrRootsUnsupported} {
		err := <-got
		var ce *fastmcp.CapabilityError
		if !errors.Is(err, want) || !errors.Is(err, fastmcp.ErrUnsupportedByClient) || !errors.As(err, &ce) {
			t.Errorf("err = %v, want %v", err, want)
		}
	}
}

func TestElicitDeclineAndBadAnswer(t *testing.T) {
	t.Parallel()
	answer := make(chan *client.ElicitResult, 2)
	c := connect(t, inputServer(), legacy, client.WithElicitation(func(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
		return <-answer, nil
	}))
	answer <- &client.ElicitResult{Action: "decline"}
	res, err := c.CallTool(ctxT(t), "elicit", nil)
	if err != nil || textOf(t, res) != "action decline" {
		t.Fatalf("decline: %v %v", res, err)
	}
	answer <- &client.ElicitResult{Action: "accept", Content: json.RawMessage(`{"username":"x","email":"not-an-email","age":"old"}`)}
	res, err = c.CallTool(ctxT(t), "elicit", nil)
	if err != nil || !res.IsError || !strings.Contains(textOf(t, res), "age") {
		t.Fatalf("bad answer: %v %v", textOf(t, res), err)
	}
}

// modernParams builds tools/call params for a 2026-07-28 request.
func modernParams(name, extra string) json.RawMessage {
	return json.RawMessage(`{"name":"` + name + `","arguments":{}` + extra + `,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{},"roots":{}}}}`)
}

func TestMultiRoundTrip(t *testing.T) {
	t.Parallel()
	s := newServer()
	runs := 0
	s.Tool("two_questions", func(ctx *fastmcp.Context) (string, error) {
		runs++
		var p Profile
		if _, err := ctx.Elicit("Who?", &p); err != nil {
			return "", err
		}
		roots, err := ctx.ListRoots()
		if err != nil {
			return "", err
		}
		return p.Username + " " + roots[0].URI, nil
	})
	type irResult struct {
		ResultType    string                 `json:"resultType"`
		InputRequests protocol.InputRequests `json:"inputRequests"`
		RequestState  string                 `json:"requestState"`
		Content       protocol.ContentList   `json:"content"`
		Meta          map[string]any         `json:"_meta"`
	}
	c := connect(t, s, legacy) // sends the modern requests by hand
	// Round 1: the elicitation is needed.
	var r1 irResult
	if err := c.Call(ctxT(t), "tools/call", modernParams("two_questions", ""), &r1); err != nil {
		t.Fatal(err)
	}
	if r1.ResultType != "input_required" || len(r1.InputRequests) != 1 || r1.InputRequests["elicit-1"].Method != "elicitation/create" || r1.RequestState == "" {
		t.Fatalf("round 1 = %+v", r1)
	}
	// Round 2: answer it; now roots are needed.
	var r2 irResult
	extra := `,"inputResponses":{"elicit-1":{"action":"accept","content":{"username":"ada","email":"a@b.c"}}},"requestState":"` + r1.RequestState + `"`
	if err := c.Call(ctxT(t), "tools/call", modernParams("two_questions", extra), &r2); err != nil {
		t.Fatal(err)
	}
	if r2.ResultType != "input_required" || r2.InputRequests["roots-2"].Method != "roots/list" {
		t.Fatalf("round 2 = %+v", r2)
	}
	// Round 3: answer roots; the earlier answer comes from requestState.
	var r3 irResult
	extra = `,"inputResponses":{"roots-2":{"roots":[{"uri":"file:///w"}]}},"requestState":"` + r2.RequestState + `"`
	if err := c.Call(ctxT(t), "tools/call", modernParams("two_questions", extra), &r3); err != nil {
		t.Fatal(err)
	}
	if r3.ResultType != "complete" || len(r3.Content) != 1 || r3.Content[0].(*fastmcp.TextContent).Text != "ada file:///w" {
		t.Fatalf("round 3 = %+v", r3)
	}
	if runs != 3 {
		t.Errorf("handler ran %d times, want 3", runs)
	}
	// A tampered state is refused.
	bad := []byte(r2.RequestState)
	bad[len(bad)/2] ^= 1
	err := c.Call(ctxT(t), "tools/call", modernParams("two_questions", `,"requestState":"`+string(bad)+`"`), nil)
	if !errors.Is(err, protocol.ErrInvalidParams) || !strings.Contains(err.Error(), "requestState") {
		t.Fatalf("tampered state: %v", err)
	}
	// A state is bound to its request: another tool's call cannot use it.
	s.Tool("other", func(ctx *fastmcp.Context) string { return "x" })
	err = c.Call(ctxT(t), "tools/call", modernParams("other", `,"requestState":"`+r2.RequestState+`"`), nil)
	if !errors.Is(err, protocol.ErrInvalidParams) || !strings.Contains(err.Error(), "different request") {
		t.Fatalf("state on another request: %v", err)
	}
}

func TestModernMissingCapability(t *testing.T) {
	t.Parallel()
	c := connect(t, inputServer(), legacy) // sends the modern request by hand
	params := json.RawMessage(`{"name":"sample","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)
	err := c.Call(ctxT(t), "tools/call", params, nil)
	var perr *protocol.Error
	if !errors.As(err, &perr) || perr.Code != protocol.CodeMissingRequiredClientCapability || !strings.Contains(string(perr.Data), `"requiredCapabilities":{"sampling":{}}`) {
		t.Fatalf("err = %v (%s)", err, perr.Data)
	}
}
