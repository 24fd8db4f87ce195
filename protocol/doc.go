// Package protocol holds the wire types of the Model Context Protocol: the
// JSON-RPC 2.0 envelope (Message, Request, Response, ID, Error) and every
// MCP message and object of every revision from 2024-11-05 to 2026-07-28.
//
// # Decoding
//
// All wire decoding goes through this package and is strict: member names
// match case-sensitively (a "Name" member never reads as "name", the class
// of bug behind CVE-2026-27896), duplicate member names and invalid UTF-8
// are rejected, unknown members are ignored. DecodeMessage classifies what
// it cannot decode as a *DecodeError carrying the JSON-RPC error to answer
// with: -32700 for invalid JSON, -32600 for JSON that is not a JSON-RPC
// message. Request ids keep their exact JSON text, so a response echoes
// 1, 1.0 and "1" as sent.
//
// # Types
//
// One Go type per concept carries the union of the fields of every
// revision; optional fields are omitted when zero and doc comments say
// which revision introduced a field. Params stay raw (json.RawMessage) until
// a handler knows their type. Content is a sealed interface implemented by
// *TextContent, *ImageContent, *AudioContent, *ResourceLink,
// *EmbeddedResource, *ToolUseContent and *ToolResultContent.
//
// # Errors
//
// *Error is both what travels and a Go error: errors.Is matches by code,
// so errors.Is(err, protocol.ErrMethodNotFound) holds for an error decoded
// from a peer. Wrap the sentinels to add detail; ToWire turns any error
// into the *Error to send.
//
// # Revisions
//
// This package is the one owner of what each revision has; the other
// packages ask it rather than compare revisions. SupportedVersions lists the
// revisions spoken; Negotiate picks the answer to an initialize request;
// EraOf tells the Modern era (2026-07-28 on: no handshake, per-request
// _meta) from the Legacy one, and the methods of Era say what differs
// between the two (Stateless, Dropped, ServerRequests, ResourceNotFound,
// CacheHints, RefusesMissingCapability, RoutingHeaders, TasksExtension);
// IsLegacy tells a supported Legacy revision. HasBatches, HasElicitation,
// HasURLElicitation, HasSamplingTools and PrimesStreams name the features
// of each revision. Request.Meta parses a request's _meta once, for the
// transport, the engine and the handler.
package protocol
