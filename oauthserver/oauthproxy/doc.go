// Package oauthproxy puts an identity provider that MCP clients cannot
// use directly — GitHub, Google, Microsoft Entra, any OpenID provider —
// behind an MCP authorization server (package oauthserver): MCP clients
// register with the authorization server and get its tokens, for the MCP
// server's resource, while the person at the browser signs in at the
// upstream through one client registered there for the proxy.
//
// The upstream's tokens never reach the MCP client (the spec's
// token-passthrough rule): the proxy keeps each user's upstream token,
// encrypted, and tools get it with UpstreamToken to call the upstream's
// API on the user's behalf. Every client sees the authorization server's
// consent page, which names it, before a code is issued, so a client
// cannot ride the upstream consent the user gave the proxy (the
// confused-deputy attack of the MCP security guide). A sign-in is bound
// to the browser that started it: a callback carrying another browser's
// state is refused.
package oauthproxy
