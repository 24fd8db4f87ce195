// Package preview is a local host for MCP Apps (the io.modelcontextprotocol/ui
// extension): a page on 127.0.0.1 that lists a server's tools with views,
// calls one with a form built from its input schema, and renders its view
// the way a chat host does, so that an app's author can try it without one.
//
// The view runs in the double-iframe sandbox the MCP Apps specification asks
// web hosts for: the page embeds a sandbox proxy served by a second
// listener (another port, so another origin), and the proxy loads the
// view's HTML into an inner sandboxed iframe under a Content-Security-Policy
// built from the resource's _meta.ui.csp. The page speaks the host side of
// the protocol over postMessage: ui/initialize with a host context, the
// tool's input and result, the view's tools/call and resources/read (sent
// to the server through the Go handler, only to this server, and only for
// tools the view may call), size changes, ui/open-link, ui/message,
// ui/update-model-context, logging, and ui/resource-teardown when the view
// is replaced or closed.
//
// Security: both listeners accept only loopback Host headers (against DNS
// rebinding), and the page's JSON endpoints require the same-origin Origin
// header when one is sent and a per-run token that only the page knows.
//
// Use [Preview.ListenAndServe] for the common case:
//
//	client, err := client.ConnectCommand(ctx, cmd, client.WithApps())
//	...
//	p := preview.New(client, nil)
//	err := p.ListenAndServe(ctx, "127.0.0.1:0", os.Stderr)
//
// or [Preview.Serve] with listeners of your own. The command
// `fastmcp dev apps` runs it; docs/apps.md shows it.
package preview
