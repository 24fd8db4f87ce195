package openapi_test

import (
	"log/slog"
	"slices"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/openapi"
	"github.com/fastmcp-go/fastmcp/session"
)

// TestOperationTags: each generated component carries its operation's
// OpenAPI tags, so Disable and Visibility select generated components by
// them.
func TestOperationTags(t *testing.T) {
	d, err := openapi.ReadFile("testdata/petstore.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var asked []string
	s := fastmcp.New("petstore", "1.0.0", fastmcp.Logger(slog.New(slog.DiscardHandler)),
		fastmcp.Visibility(func(_ *session.Request, c fastmcp.Component) bool {
			if c.HasTag("pets") {
				asked = append(asked, c.Name)
			}
			return true
		}))
	if _, err := openapi.Register(s, d, openapi.Config{BaseURL: "http://127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
	c := fastmcptest.NewClient(t, s)
	names := func() (out []string) {
		page, err := c.ListTools(t.Context(), "")
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range page.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	if got := names(); len(got) != 4 {
		t.Fatalf("tools = %v", got)
	}
	slices.Sort(asked)
	if !slices.Equal(asked, []string{"createPets", "listPets", "showPetById"}) {
		t.Errorf("components tagged pets = %v", asked)
	}
	s.Disable(fastmcp.Selector{Tags: []string{"admin"}})
	if got := names(); slices.Contains(got, "deletePet") || len(got) != 3 {
		t.Errorf("after Disable(admin): %v", got)
	}
}
