package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// hostile is text a hostile server sends to take over the user's
// terminal: it sets the window title, clears the screen, plants an OSC 8
// link, overwrites a line with a carriage return, starts a CSI with the C1
// character U+009B, reverses the text with a bidi override, and ends with
// DEL and NUL. The tests check that the command shows none of it raw.
const hostile = "title\x1b]0;pwned\x07 clear\x1b[2J link\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ safe\rEVIL c1\u009b31m bidi\u202eevil\u202c\u2066x\u2069 del\x7f nul\x00 end"

// badToolName is a tool name outside the MCP tool-name characters, sent
// by the hostile server's tools/list.
const badToolName = "bad\x1b[31mname\u202e"

type hostileForm struct {
	Name string "json:\"name\" jsonschema:\"title=Na\x1b[2Jme,description=Your\u009b name\""
}

type bigArgs struct {
	Bytes int `json:"bytes" jsonschema:"description=How many bytes of text"`
}

// newHostileServer is a server whose every text is hostile: its name,
// instructions, tools (and the name of one), resources, prompts, log
// messages, progress messages, elicitation form, errors and results; and
// whose big tool returns as much text as asked for.
func newHostileServer() *fastmcp.Server {
	d := fastmcp.Description
	s := fastmcp.New("hostile"+hostile, "6.6.6", fastmcp.Instructions("Instructions: "+hostile),
		fastmcp.Logger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	s.Tool("echo", func(ctx *fastmcp.Context) (*fastmcp.ToolResult, error) {
		ctx.Warning("log: " + hostile)
		if err := ctx.Progress(1, 2, "progress: "+hostile); err != nil {
			return nil, err
		}
		structured, _ := json.Marshal(map[string]string{"text": hostile})
		return &fastmcp.ToolResult{
			Content:           []fastmcp.Content{fastmcp.Text("text: " + hostile)},
			StructuredContent: structured,
		}, nil
	}, d("Description: "+hostile))
	s.Tool("big", func(in bigArgs) string {
		line := strings.Repeat("x", 79) + "\n"
		return strings.Repeat(line, in.Bytes/len(line)+1)[:in.Bytes]
	}, d("Returns that many bytes of text"))
	s.Tool("fails", func() (string, error) {
		return "", &toolError{"tool error: " + hostile}
	}, d("Fails with a hostile message"))
	s.Tool("rpcerror", func() (string, error) {
		return "", &protocol.Error{Code: protocol.CodeInvalidParams, Message: "rpc error: " + hostile}
	}, d("Answers with a JSON-RPC error"))
	s.Tool("ask", func(ctx *fastmcp.Context) (string, error) {
		var f hostileForm
		action, err := ctx.Elicit("Elicit: "+hostile, &f)
		if err != nil {
			return "", err
		}
		return "asked " + string(action), nil
	}, d("Asks a hostile question"))
	s.Resource("mem://hostile", func() string { return "resource: " + hostile }, d("Resource: "+hostile), fastmcp.ResourceName("res"+hostile))
	s.Resource("mem://t/{id}", func(in fileID) string { return in.ID }, d("Template: "+hostile))
	s.Prompt("hostile", func() string { return "prompt: " + hostile }, d("Prompt: "+hostile))
	// tools/list also lists a tool with a name no MCP tool may have.
	s.Lowlevel().Use(func(next fastmcp.Handler) fastmcp.Handler {
		return fastmcp.HandlerFunc(func(ctx context.Context, req *fastmcp.Request) (any, error) {
			res, err := next.Handle(ctx, req)
			if err != nil || req.Method != protocol.MethodToolsList {
				return res, err
			}
			b, err := protocol.Marshal(res)
			if err != nil {
				return nil, err
			}
			var l map[string]any
			if err := json.Unmarshal(b, &l); err != nil {
				return nil, err
			}
			tools, _ := l["tools"].([]any)
			l["tools"] = append(tools, map[string]any{"name": badToolName, "description": "Bad name: " + hostile, "inputSchema": map[string]any{"type": "object"}})
			return l, nil
		})
	})
	return s
}

// toolError is a tool's failure (isError), with its message as it is.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }
