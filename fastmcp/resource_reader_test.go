package fastmcp_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestAddResourceReader: a reader serves resources/read (and
// Context.ReadResource) for the URIs it holds, ahead of the registered
// resources, without listing them; other URIs fall through.
func TestAddResourceReader(t *testing.T) {
	t.Parallel()
	bothEras(t, func(t *testing.T, era client.Option, modern bool) {
		s := newServer(fastmcp.PageSize(7))
		if s.PageSize() != 7 || newServer().PageSize() != 1000 {
			t.Errorf("PageSize = %d and %d, want 7 and the default 1000", s.PageSize(), newServer().PageSize())
		}
		s.AddResourceReader(func(uri string) (fastmcp.ResourceContents, bool) {
			if !strings.HasPrefix(uri, "mem://") {
				return fastmcp.ResourceContents{}, false
			}
			return fastmcp.ResourceContents{URI: uri, MIMEType: "text/plain", Text: "held " + uri}, true
		})
		s.Resource("mem://shadowed", func() string { return "registered" })
		s.Resource("file:///listed.txt", func() string { return "listed" })
		s.Tool("peek", func(ctx *fastmcp.Context, in struct {
			URI string `json:"uri"`
		}) (string, error) {
			c, err := ctx.ReadResource(in.URI)
			if err != nil {
				return "", err
			}
			return c[0].Text, nil
		})
		c := connect(t, s, era)
		ctx := ctxT(t)

		for uri, want := range map[string]string{"mem://a/b": "held mem://a/b", "mem://shadowed": "held mem://shadowed", "file:///listed.txt": "listed"} {
			res, err := c.ReadResource(ctx, uri)
			if err != nil || len(res.Contents) != 1 || res.Contents[0].Text != want {
				t.Errorf("read %s = %+v, %v, want %q", uri, res, err, want)
			}
		}
		if _, err := c.ReadResource(ctx, "file:///nope"); !errors.Is(err, protocol.ErrResourceNotFound) && !errors.Is(err, protocol.ErrInvalidParams) {
			t.Errorf("read of an unknown URI: %v", err)
		}
		if res, err := c.CallTool(ctx, "peek", map[string]string{"uri": "mem://x"}); err != nil || res.IsError || res.Text() != "held mem://x" {
			t.Errorf("Context.ReadResource through the reader = %+v, %v", res, err)
		}
		var listed []string
		for r, err := range c.Resources(ctx) {
			if err != nil {
				t.Fatal(err)
			}
			listed = append(listed, r.URI)
		}
		if strings.Join(listed, " ") != "file:///listed.txt mem://shadowed" {
			t.Errorf("listed %v: a reader's URIs are not listed", listed)
		}
	})
}

// TestAddResourceReaderDeclaresResources: a server with only a reader
// declares the resources capability and answers resources/read.
func TestAddResourceReaderDeclaresResources(t *testing.T) {
	t.Parallel()
	s := newServer()
	s.AddResourceReader(func(uri string) (fastmcp.ResourceContents, bool) {
		return fastmcp.ResourceContents{URI: uri, Text: "x"}, uri == "mem://x"
	})
	c := connect(t, s)
	if c.ServerCapabilities().Resources == nil {
		t.Fatal("no resources capability")
	}
	if res, err := c.ReadResource(ctxT(t), "mem://x"); err != nil || res.Contents[0].Text != "x" {
		t.Fatalf("read = %+v, %v", res, err)
	}
}
