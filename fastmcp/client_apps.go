package fastmcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/internal/appswire"
)

// WithApps declares that the client renders the views of the MCP Apps
// extension (it is a host, or speaks for one), in the given MIME types;
// default apps.MIMEType, the only one the extension defines so far.
// Servers then list tools with their _meta.ui (read it with
// apps.ToolMetaOf) and the tools only views may call, which the host must
// keep from its model. Without it servers give the fallback: tools without
// views.
func WithApps(mimeTypes ...string) ClientOption {
	if len(mimeTypes) == 0 {
		mimeTypes = []string{appswire.MIMEType}
	}
	return clientOption(func(c *clientConfig) { c.appMIMETypes = mimeTypes })
}

// appsSettings is the extension's settings object the client declares;
// nil without WithApps.
func (c *Client) appsSettings() json.RawMessage {
	if len(c.cfg.appMIMETypes) == 0 {
		return nil
	}
	b, _ := json.Marshal(appswire.ClientSettings{MIMETypes: c.cfg.appMIMETypes})
	return b
}

// ErrNotView is matched (errors.Is) by the error of ReadView when the
// resource is not an MCP Apps view.
var ErrNotView = errors.New("fastmcp: not an MCP Apps view")

// ReadView reads the view uri (a tool's apps.ToolMeta.ResourceURI) and
// returns it: its HTML, and as Meta the _meta.ui its contents carry (which
// hosts apply over that of the resources/list entry). A resource whose
// contents are not one document of MIME type apps.MIMEType (see
// apps.IsViewMIMEType) gives an error matching ErrNotView.
func (c *Client) ReadView(ctx context.Context, uri string) (*apps.View, error) {
	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	for _, rc := range res.Contents {
		if rc.URI != uri {
			continue
		}
		if !appswire.IsViewMIMEType(rc.MIMEType) {
			return nil, fmt.Errorf("%w: %s has MIME type %q, not %q", ErrNotView, uri, rc.MIMEType, appswire.MIMEType)
		}
		html := rc.Text
		if rc.Blob != nil {
			if !utf8.Valid(rc.Blob) {
				return nil, fmt.Errorf("%w: %s: the document is not UTF-8", ErrNotView, uri)
			}
			html = string(rc.Blob)
		}
		meta, err := apps.ViewMetaOf(rc.Meta)
		if err != nil {
			return nil, fmt.Errorf("fastmcp: view %s: %w", uri, err)
		}
		return &apps.View{URI: uri, HTML: html, Meta: meta}, nil
	}
	return nil, fmt.Errorf("%w: the contents of %s hold no document with its URI", ErrNotView, uri)
}
