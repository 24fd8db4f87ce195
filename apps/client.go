package apps

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/client"
)

// ErrNotView is matched (errors.Is) by the error of ReadView when the
// resource is not a view.
var ErrNotView = errors.New("apps: not an MCP Apps view")

// ReadView reads the view uri (a tool's ToolMeta.ResourceURI) with c and
// returns it: its HTML, and as Meta the _meta.ui its contents carry (which
// hosts apply over that of the resources/list entry). A resource whose
// contents are not one document of MIME type MIMEType (see IsViewMIMEType)
// gives an error matching ErrNotView. The client declares the extension
// with client.WithApps.
func ReadView(ctx context.Context, c *client.Client, uri string) (*View, error) {
	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	for _, rc := range res.Contents {
		if rc.URI != uri {
			continue
		}
		if !IsViewMIMEType(rc.MIMEType) {
			return nil, fmt.Errorf("%w: %s has MIME type %q, not %q", ErrNotView, uri, rc.MIMEType, MIMEType)
		}
		html := rc.Text
		if rc.Blob != nil {
			if !utf8.Valid(rc.Blob) {
				return nil, fmt.Errorf("%w: %s: the document is not UTF-8", ErrNotView, uri)
			}
			html = string(rc.Blob)
		}
		meta, err := ViewMetaOf(rc.Meta)
		if err != nil {
			return nil, fmt.Errorf("apps: view %s: %w", uri, err)
		}
		return &View{URI: uri, HTML: html, Meta: meta}, nil
	}
	return nil, fmt.Errorf("%w: the contents of %s hold no document with its URI", ErrNotView, uri)
}
