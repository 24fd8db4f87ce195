// Package openapi turns an existing HTTP API, described by an OpenAPI 3.0
// or 3.1 document, into MCP tools, resources and resource templates of a
// fastmcp server.
//
// Load the document with Parse, Read, ReadFile or Fetch, then call
// Register:
//
//	d, err := openapi.ReadFile("petstore.yaml")
//	...
//	s := fastmcp.New("petstore", "1.0.0")
//	comps, err := openapi.Register(s, d, openapi.Config{
//		BaseURL: "https://petstore.example.com/v1",
//		Client:  &http.Client{Timeout: 30 * time.Second},
//	})
//
// # Tools
//
// Each operation becomes a tool named after its operationId, sanitized to
// the MCP tool-name rules (1 to 64 of A-Z a-z 0-9 _ - . /; other characters
// become '_', a longer name is cut and ends with a short hash), or after
// its method and path when it has none ("get_pets_petId"). Duplicates get
// "_2", "_3", ... in document order; Config.Prefix is prepended and
// Config.Names overrides any name.
//
// A tool's input schema is one JSON object merging the operation's path,
// query, header and cookie parameters and its request body: references are
// inlined (a recursive schema becomes "$defs" and "$ref"), allOf is merged
// into one object where it can be, oneOf and anyOf are kept, 3.0's
// nullable, boolean exclusive bounds and example become their JSON Schema
// 2020-12 forms. A JSON body that is an object has its properties at the
// top level; any other body (array, primitive, form, multipart, text,
// binary) is one argument "body", bytes as base64 text. A name used in two
// locations gets the location as a suffix: "id_path", "id_body". Every call
// is validated against this schema before any request is made.
//
// The output schema comes from the success response (200, 201, another 2xx,
// then 2XX) when it is JSON; one that is not an object is published as
// {"result": ...}, and the structured content likewise.
//
// A call builds the request (path styles simple, label and matrix; query
// styles form, spaceDelimited, pipeDelimited and deepObject, with explode;
// headers; cookies; JSON, form, multipart, text and binary bodies), sends it
// with Config.Client under the call's context, and maps the answer: JSON
// becomes structured content and text, text/* text, image/* an image,
// anything else an embedded resource; a 4xx or 5xx status is a tool error
// "HTTP <status>: <body>", and a request that fails is a tool error saying
// so. Bodies are read up to Config.MaxResponseBytes.
//
// # Resources, templates, tags and credentials
//
// Config.Routes choose by method, path pattern and tag what each operation
// becomes: a Tool, a Resource (a GET without parameters), a
// ResourceTemplate (a GET with only path and query parameters) or nothing.
// Every component is tagged with its operation's tags (fastmcp.Tags).
// Config.Headers and Config.OperationHeaders carry the API's credentials;
// the MCP caller's own Authorization header reaches the API only with
// Config.ForwardAuthorization.
package openapi
