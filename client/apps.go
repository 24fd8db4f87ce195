package client

import (
	"encoding/json"

	"github.com/fastmcp-go/fastmcp/internal/appswire"
)

// WithApps declares that the client renders the views of the MCP Apps
// extension (it is a host, or speaks for one), in the given MIME types;
// default apps.MIMEType, the only one the extension defines so far.
// Servers then list tools with their _meta.ui (read it with
// apps.ToolMetaOf) and the tools only views may call, which the host must
// keep from its model. Without it servers give the fallback: tools without
// views.
func WithApps(mimeTypes ...string) Option {
	if len(mimeTypes) == 0 {
		mimeTypes = []string{appswire.MIMEType}
	}
	return option(func(c *config) { c.appMIMETypes = mimeTypes })
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
