// Command fastmcp lists, calls and inspects any MCP server from the
// terminal: one it starts (its command after --, spoken to over stdio) or
// one at a URL (Streamable HTTP, falling back to the legacy HTTP+SSE
// transport).
//
// Install it with
//
//	go install github.com/fastmcp-go/fastmcp/cmd/fastmcp@latest
//
// Usage:
//
//	fastmcp list tools|resources|templates|prompts TARGET [--json] [-o FILE]
//	fastmcp inspect TARGET [--json] [-o FILE]
//	fastmcp call TARGET TOOL [key=value ...] [--args '{json}'] [--json] [-o FILE] [--no-input]
//	fastmcp read TARGET URI [--json] [-o FILE]
//	fastmcp prompt TARGET NAME [key=value ...] [--json] [-o FILE]
//	fastmcp ping TARGET [--json] [-o FILE]
//	fastmcp dev apps TARGET [--open] [--addr 127.0.0.1:PORT]
//	fastmcp proxy [--from stdio|ADDRESS] [--to] TARGET [--allowed-hosts H] [--auth-issuer URL]
//	fastmcp completion bash|zsh|fish
//
// TARGET is an http(s) URL, or "-- COMMAND ARGS..." at the end of the
// command line:
//
//	fastmcp call http://127.0.0.1:8080/mcp add a=1 b=2
//	fastmcp call add a=1 b=2 -- ./my-server --stdio
//
// Flags that apply to every command: -H 'Name: value' adds an HTTP header;
// --oauth authorizes with the server's OAuth authorization server (the
// browser opens for the login, or the URL is printed with --no-browser),
// keeping the tokens per user and server under the user's configuration
// directory (os.UserConfigDir()/fastmcp/tokens, files of mode 0600), so the
// next command reuses them; --protocol REVISION speaks that protocol
// revision; --timeout bounds the whole command (dev apps: connecting
// only); --no-input never prompts;
// --log-level sets the least severe server log message shown on stderr;
// --max-output SIZE bounds what is printed for a person (below); -v logs
// what the client does.
//
// Everything printed for a person (tables, results, inspect, log and
// progress messages, questions, errors) has the characters a terminal acts
// on escaped, since the server chooses most of it: C0 controls but newline
// and tab (a carriage return before a newline is kept), DEL, C1 controls
// and bidi formatting characters show as \x1b or \u009b, a byte that is
// not UTF-8 as \xff. A tool name outside the MCP tool-name characters is
// quoted, as Go quotes strings, and flagged. One result, and each line on
// stderr, is cut at --max-output (default 256KiB; 0: no limit) with a last
// line saying how much was cut. --json (JSON, with those characters
// \u-escaped) and -o FILE (the result as the server sent it, in full) are
// exact.
//
// Tool arguments are key=value words typed from the tool's input schema
// (n=3 is a number when the schema says so; arrays and objects are written
// as JSON; key:=JSON forces JSON), or --args with a JSON object; they are
// checked against the schema before the call, mistakes reported by field.
// While a tool runs, progress is shown as a bar on a terminal (plain lines
// otherwise) and the server's log messages go to stderr; elicitation
// requests are asked on stderr and answered on stdin (a URL-mode request
// shows the URL and opens it), or declined with --no-input.
//
// Exit codes:
//
//	0    success
//	1    the server answered with an error (an unknown resource, invalid params, ...)
//	2    a mistake on the command line: flags, arguments, key=value, an unknown tool or prompt
//	3    the server could not be started, reached or authorized, or the connection broke
//	4    the tool ran and reported an error (isError)
//	130  interrupted
//
// dev apps serves a page on 127.0.0.1 that renders the server's MCP Apps
// views as a chat host does (see docs/apps.md), until Ctrl-C.
//
// proxy serves TARGET over another transport (proxy.New): over stdio
// to a host that starts its servers (fastmcp proxy https://example.com/mcp
// --oauth), or over Streamable HTTP on --from ADDRESS, with DNS-rebinding
// protection and, with --auth-issuer, OAuth access tokens required.
//
// Every command's --help has examples; docs/cli.md has a whole session.
package main
