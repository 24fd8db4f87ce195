// Package proxy serves, as a *fastmcp.Server, whatever the server behind a
// *client.Client offers: one process re-exposes a server over another
// transport (a stdio server over Streamable HTTP, a remote server over
// stdio), puts authentication or telemetry in front of it, or mounts it
// beside other servers (fastmcp.Server.Mount composes remote servers).
//
//	c, err := client.ConnectHTTP(ctx, "https://example.com/mcp", client.WithRequestForwarding())
//	if err != nil {
//		return err
//	}
//	defer c.Close()
//	return proxy.New(c, fastmcp.Logger(logger)).ServeStdio(ctx)
//
// New says what is forwarded and how: lists, calls with their progress,
// log messages and the backend's requests for input, cancellation,
// subscriptions and tasks, whichever protocol revision each side speaks.
// The cmd/fastmcp command's `fastmcp proxy` and examples/proxy are built
// on it; docs/proxy.md is the guide.
//
// Package fastmcp does not import this package, nor package client: a
// server that builds no proxy links neither. The proxy drives the server
// through fastmcp's exported API and the narrow bridge
// internal/serverlink, and the client through its exported API and
// internal/clientlink.
package proxy
