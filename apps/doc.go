// Package apps holds the types of the MCP Apps extension
// (io.modelcontextprotocol/ui, SEP-1865): a tool that comes with an
// interactive HTML view, which hosts render in a sandboxed frame beside the
// tool's result.
//
// A view is a resource with a ui:// URI and the MIME type
// text/html;profile=mcp-app, holding one HTML document, with metadata
// ([ViewMeta]: the origins its Content Security Policy must allow, the
// browser permissions it asks for, its border preference). A tool names its
// view in its _meta.ui ([ToolMeta]), and says there who may call it: the
// model, the view, or both.
//
// Servers build a [View] with [NewView], [ViewFromFile] or [ViewFromFS] and
// attach it to tools with the tool option [WithView]; [AppOnly] and
// [ModelOnly] say who may call a tool. Clients declare the extension with
// client.WithApps and fetch views with [ReadView]. A program that uses
// none of them does not link this package.
//
// # One document
//
// The extension wants one HTML document per view: the host loads it into
// an iframe from a string, so a relative <script src> or <link href> has
// nothing to load from. [ViewFromFS] and [ViewFromFile] therefore inline
// the scripts and stylesheets a page references by relative path. Other
// assets (images, fonts) must be data: URIs inside the document, or be
// served from an origin the view declares in CSP.ResourceDomains.
//
// # Fallback
//
// Clients that do not declare the extension with the MIME type see the
// tool without its _meta.ui, do not see the tools only views may call, and
// get the tool's result unchanged: its text content is what they show. A
// tool with a view must therefore still return meaningful text.
package apps
