package client_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestCompleteRefs: client.PromptRef and client.ResourceRef refer Complete
// to a prompt's argument and a resource template's variable as
// fastmcp.PromptRef and ResourceRef do, so a client program completes
// without importing fastmcp or protocol.
func TestCompleteRefs(t *testing.T) {
	t.Parallel()
	if client.PromptRef("p") != fastmcp.PromptRef("p") || client.ResourceRef("u://{x}") != fastmcp.ResourceRef("u://{x}") {
		t.Fatalf("client refs %+v %+v differ from fastmcp's %+v %+v",
			client.PromptRef("p"), client.ResourceRef("u://{x}"), fastmcp.PromptRef("p"), fastmcp.ResourceRef("u://{x}"))
	}
	s := newServer()
	type LangArgs struct {
		Language string `json:"language"`
	}
	s.Prompt("scaffold", func(in LangArgs) string { return in.Language },
		fastmcp.CompleteArg("language", fastmcp.Choices("go", "python")))
	s.Resource("repo://{owner}", func(in struct {
		Owner string `json:"owner"`
	}) string {
		return in.Owner
	})
	if err := s.Complete(fastmcp.ResourceRef("repo://{owner}"), "owner", fastmcp.Choices("golang", "google")); err != nil {
		t.Fatal(err)
	}
	c := connect(t, s)
	for _, tc := range []struct {
		ref        client.CompleteReference
		arg, value string
		want       []string
	}{
		{client.PromptRef("scaffold"), "language", "g", []string{"go"}},
		{client.ResourceRef("repo://{owner}"), "owner", "go", []string{"golang", "google"}},
	} {
		res, err := c.Complete(ctxT(t), tc.ref, tc.arg, tc.value, nil)
		if err != nil {
			t.Fatalf("%+v: %v", tc.ref, err)
		}
		if !slices.Equal(res.Completion.Values, tc.want) {
			t.Errorf("%+v %s=%q: got %q, want %q", tc.ref, tc.arg, tc.value, res.Completion.Values, tc.want)
		}
	}
	_, err := c.Complete(ctxT(t), client.PromptRef("nope"), "language", "", nil)
	if !errors.Is(err, client.ErrInvalidParams) {
		t.Fatalf("unknown prompt: %v, want an error matching client.ErrInvalidParams", err)
	}
}
