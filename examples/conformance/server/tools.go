package main

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	_ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate" // InputSchema: the SEP-2106 fixture
)

// Test data the conformance suite expects.
var (
	png1x1, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	wavMin, _ = base64.StdEncoding.DecodeString("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")
)

// jsonSchema2020 is the SEP-2106 fixture, published byte for byte.
const jsonSchema2020 = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},"properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},"allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],"if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},"then":{"required":["phone"]},"else":{"required":["email"]},"additionalProperties":false}`

// SamplingArgs are the arguments of test_sampling.
type SamplingArgs struct {
	Prompt string `json:"prompt" jsonschema:"description=The prompt to send to the LLM"`
}

// ElicitationArgs are the arguments of test_elicitation.
type ElicitationArgs struct {
	Message string `json:"message" jsonschema:"description=The message to show the user"`
}

// UserInfo is the form of test_elicitation.
type UserInfo struct {
	Username string `json:"username" jsonschema:"description=User's response"`
	Email    string `json:"email" jsonschema:"description=User's email address"`
}

// Defaults is the form of test_elicitation_sep1034_defaults: every
// primitive type with a default (SEP-1034).
type Defaults struct {
	Name     string  `json:"name,omitempty" jsonschema:"description=User name,default=John Doe"`
	Age      int     `json:"age,omitempty" jsonschema:"description=User age,default=30"`
	Score    float64 `json:"score,omitempty" jsonschema:"description=User score,default=95.5"`
	Status   string  `json:"status,omitempty" jsonschema:"description=User status,enum=active,enum=inactive,enum=pending,default=active"`
	Verified bool    `json:"verified,omitempty" jsonschema:"description=Verification status,default=true"`
}

// Enums is the form of test_elicitation_sep1330_enums: the five enum
// shapes of SEP-1330.
type Enums struct {
	UntitledSingle string   `json:"untitledSingle,omitempty" jsonschema:"description=Select one option,enum=option1,enum=option2,enum=option3"`
	TitledSingle   string   `json:"titledSingle,omitempty" jsonschema:"description=Select one option with titles,enum=value1,enum=value2,enum=value3" mcp:"titles=First Option|Second Option|Third Option"`
	LegacyEnum     string   `json:"legacyEnum,omitempty" jsonschema:"description=Select one option (legacy),enum=opt1,enum=opt2,enum=opt3" mcp:"enumNames=Option One|Option Two|Option Three"`
	UntitledMulti  []string `json:"untitledMulti,omitempty" jsonschema:"description=Select multiple options,minItems=1,maxItems=3" validate:"dive,oneof=option1 option2 option3"`
	TitledMulti    []string `json:"titledMulti,omitempty" jsonschema:"description=Select multiple options with titles,minItems=1,maxItems=3" validate:"dive,oneof=value1 value2 value3" mcp:"titles=First Choice|Second Choice|Third Choice"`
}

// CustomHeaderArgs mirror region into the Mcp-Param-Region header (SEP-2243).
type CustomHeaderArgs struct {
	Region string `json:"region" jsonschema:"description=Cloud region" jsonschema_extras:"x-mcp-header=Region"`
}

// Name is an elicitation form asking for a name.
type Name struct {
	Name string `json:"name"`
}

// Color is an elicitation form asking for a color.
type Color struct {
	Color string `json:"color"`
}

// OK is an elicitation form asking for confirmation.
type OK struct {
	OK bool `json:"ok"`
}

func text(res *fastmcp.SamplingResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*fastmcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

func userMessage(s string) []fastmcp.SamplingMessage {
	return []fastmcp.SamplingMessage{{Role: fastmcp.RoleUser, Content: fastmcp.SamplingContent{fastmcp.Text(s)}}}
}

func registerTools(s *fastmcp.Server) {
	d := fastmcp.Description
	// test_simple_text comes first in name order so that a probe calling
	// the first listed tool with {} succeeds.
	s.Tool("test_simple_text", func() string { return "This is a simple text response for testing." },
		d("Tests simple text content response"))
	s.Tool("test_image_content", func() fastmcp.Content { return fastmcp.Image(png1x1, "image/png") },
		d("Tests image content response"))
	s.Tool("test_audio_content", func() fastmcp.Content { return fastmcp.Audio(wavMin, "audio/wav") },
		d("Tests audio content response"))
	s.Tool("test_embedded_resource", func() fastmcp.Content {
		return fastmcp.EmbeddedText("test://embedded-resource", "text/plain", "This is an embedded resource content.")
	}, d("Tests embedded resource content response"))
	s.Tool("test_multiple_content_types", func() []fastmcp.Content {
		return []fastmcp.Content{
			fastmcp.Text("Multiple content types test:"),
			fastmcp.Image(png1x1, "image/png"),
			fastmcp.EmbeddedText("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
		}
	}, d("Tests response with multiple content types (text, image, resource)"))
	s.Tool("test_tool_with_logging", func(ctx *fastmcp.Context) (string, error) {
		for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
			if i > 0 {
				if err := sleep(ctx, 50*time.Millisecond); err != nil {
					return "", err
				}
			}
			ctx.Info(msg)
		}
		return "Tool with logging executed successfully", nil
	}, d("Tests tool that emits log messages during execution"))
	s.Tool("test_tool_with_progress", func(ctx *fastmcp.Context) (string, error) {
		for i, p := range []float64{0, 50, 100} {
			if i > 0 {
				if err := sleep(ctx, 50*time.Millisecond); err != nil {
					return "", err
				}
			}
			if err := ctx.Progress(p, 100, fmt.Sprintf("Completed step %g of 100", p)); err != nil {
				return "", err
			}
		}
		tok, _ := ctx.Request().ProgressToken()
		return "Progress tool completed (token " + tok.String() + ")", nil
	}, d("Tests tool that reports progress notifications"))
	s.Tool("test_error_handling", func() (string, error) {
		//lint:ignore ST1005 the conformance suite's fixture text
		return "", errors.New("This tool intentionally returns an error for testing")
	}, d("Tests error response handling"))
	s.Tool("test_sampling", func(ctx *fastmcp.Context, in SamplingArgs) (string, error) {
		res, err := ctx.Sample(&fastmcp.SamplingRequest{Messages: userMessage(in.Prompt), MaxTokens: 100})
		if err != nil {
			return "", err
		}
		return "LLM response: " + text(res), nil
	}, d("Tests server-initiated sampling (LLM completion request)"))
	s.Tool("test_elicitation", func(ctx *fastmcp.Context, in ElicitationArgs) (string, error) {
		var u UserInfo
		action, err := ctx.Elicit(in.Message, &u)
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(u)
		return fmt.Sprintf("User response: action=%s, content=%s", action, b), nil
	}, d("Tests server-initiated elicitation (user input request)"))
	s.Tool("test_elicitation_sep1034_defaults", func(ctx *fastmcp.Context) (string, error) {
		var v Defaults
		action, err := ctx.Elicit("Please review and update the form fields with defaults", &v)
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(v)
		return fmt.Sprintf("Elicitation completed: action=%s, content=%s", action, b), nil
	}, d("Tests elicitation with default values for every primitive type (SEP-1034)"))
	s.Tool("test_elicitation_sep1330_enums", func(ctx *fastmcp.Context) (string, error) {
		var v Enums
		action, err := ctx.Elicit("Please select options from the enum fields", &v)
		if err != nil {
			return "", err
		}
		b, _ := json.Marshal(v)
		return fmt.Sprintf("Elicitation completed: action=%s, content=%s", action, b), nil
	}, d("Tests elicitation with the enum schema forms of SEP-1330"))
	s.Tool("json_schema_2020_12_tool", func(in map[string]any) (string, error) {
		b, _ := json.Marshal(in)
		return "Received: " + string(b), nil
	}, fastmcp.InputSchema([]byte(jsonSchema2020)), d("Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)"))
	s.Tool("test_reconnection", func(ctx *fastmcp.Context) (string, error) {
		// Close this call's SSE stream (SEP-1699): the client reconnects with
		// Last-Event-ID and gets the result from the event store.
		if err := ctx.CloseStream(); err != nil {
			ctx.Logger().Debug("stream not closed", "error", err)
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return "", err
		}
		return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.", nil
	}, d("Tests SSE stream disconnection and client reconnection (SEP-1699)"))

	// 2026-07-28 fixtures.
	s.Tool("test_missing_capability", func(ctx *fastmcp.Context) (string, error) {
		if ctx.ClientCapabilities().Sampling == nil {
			return "", &fastmcp.CapabilityError{Capability: "sampling"}
		}
		return "The client declared sampling.", nil
	}, d("Needs the client's sampling capability; without it the request fails with MissingRequiredClientCapability"))
	s.Tool("test_streaming_elicitation", func(ctx *fastmcp.Context) (string, error) {
		_ = ctx.Progress(0, 1, "asking")
		var n Name
		action, err := ctx.Elicit("What is your name?", &n)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("action=%s name=%s", action, n.Name), nil
	}, d("Asks the user for input mid-call: a server-to-client request on legacy revisions, an input_required result on 2026-07-28"))
	s.Tool("test_logging_tool", func(ctx *fastmcp.Context) string {
		ctx.Info("test_logging_tool ran")
		return "Logged a message (sent only when the client asked for a log level)."
	}, d("Emits a log message, which is sent only to clients that asked for a log level"))
	s.Tool("test_trigger_tool_change", func(ctx *fastmcp.Context) string {
		s.NotifyToolsChanged()
		return "Sent notifications/tools/list_changed."
	}, d("Sends notifications/tools/list_changed to listening clients"))
	s.Tool("test_trigger_prompt_change", func(ctx *fastmcp.Context) string {
		s.NotifyPromptsChanged()
		return "Sent notifications/prompts/list_changed."
	}, d("Sends notifications/prompts/list_changed to listening clients"))
	s.Tool("test_custom_header", func(in CustomHeaderArgs) string {
		return "Region: " + in.Region
	}, d("Mirrors its region argument into the Mcp-Param-Region header (SEP-2243)"))

	registerInputRequiredTools(s)
	registerTaskTools(s)
}

// registerInputRequiredTools adds the multi round-trip (SEP-2322) fixtures.
// Each is plain handler code: on legacy sessions the same calls are
// server-to-client requests.
func registerInputRequiredTools(s *fastmcp.Server) {
	d := fastmcp.Description
	key := fastmcp.InputKey
	s.Tool("test_input_required_result_elicitation", func(ctx *fastmcp.Context) (string, error) {
		var n Name
		if _, err := ctx.Elicit("What is your name?", &n, key("user_name")); err != nil {
			return "", err
		}
		return "Hello, " + n.Name + "!", nil
	}, d("Asks for the user's name (input request user_name), then greets them"))
	s.Tool("test_input_required_result_sampling", func(ctx *fastmcp.Context) (string, error) {
		res, err := ctx.Sample(&fastmcp.SamplingRequest{Messages: userMessage("What is the capital of France?"), MaxTokens: 100}, key("sample_request"))
		if err != nil {
			return "", err
		}
		return "The model said: " + text(res), nil
	}, d("Asks the client's model a question (input request sample_request)"))
	s.Tool("test_input_required_result_list_roots", func(ctx *fastmcp.Context) (string, error) {
		roots, err := ctx.ListRoots(key("roots_request"))
		if err != nil {
			return "", err
		}
		var uris []string
		for _, r := range roots {
			uris = append(uris, r.URI)
		}
		return "Roots: " + strings.Join(uris, ", "), nil
	}, d("Asks the client for its roots (input request roots_request)"))
	s.Tool("test_input_required_result_request_state", func(ctx *fastmcp.Context) (string, error) {
		var ok OK
		if _, err := ctx.Elicit("Please confirm", &ok, key("confirm")); err != nil {
			return "", err
		}
		return fmt.Sprintf("state-ok: confirmed=%v", ok.OK), nil
	}, d("Asks for confirmation; the answer comes back with the sealed requestState"))
	s.Tool("test_input_required_result_multiple_inputs", func(ctx *fastmcp.Context) (string, error) {
		var n Name
		_, err1 := ctx.Elicit("What is your name?", &n, key("user_name"))
		greeting, err2 := ctx.Sample(&fastmcp.SamplingRequest{Messages: userMessage("Say hello"), MaxTokens: 50}, key("greeting"))
		roots, err3 := ctx.ListRoots(key("client_roots"))
		if err := errors.Join(err1, err2, err3); err != nil {
			return "", err
		}
		return fmt.Sprintf("name=%s greeting=%s roots=%d", n.Name, text(greeting), len(roots)), nil
	}, d("Asks three questions at once: elicitation, sampling and roots"))
	s.Tool("test_input_required_result_multi_round", func(ctx *fastmcp.Context) (string, error) {
		var n Name
		if _, err := ctx.Elicit("What is your name?", &n, key("step1")); err != nil {
			return "", err
		}
		var c Color
		if _, err := ctx.Elicit("What is your favourite color?", &c, key("step2")); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s likes %s", n.Name, c.Color), nil
	}, d("Asks two questions in two rounds"))
	s.Tool("test_input_required_result_tampered_state", func(ctx *fastmcp.Context) (string, error) {
		var ok OK
		if _, err := ctx.Elicit("Please confirm", &ok, key("confirm")); err != nil {
			return "", err
		}
		return "confirmed", nil
	}, d("Asks for confirmation; a tampered requestState is refused"))
	s.Tool("test_input_required_result_capabilities", func(ctx *fastmcp.Context) (string, error) {
		// Ask only what the client declared it can answer.
		var errs []error
		var n Name
		if _, err := ctx.Elicit("What is your name?", &n, key("user_name")); !errors.Is(err, fastmcp.ErrUnsupportedByClient) {
			errs = append(errs, err)
		}
		if _, err := ctx.Sample(&fastmcp.SamplingRequest{Messages: userMessage("Say hello"), MaxTokens: 50}, key("greeting")); !errors.Is(err, fastmcp.ErrUnsupportedByClient) {
			errs = append(errs, err)
		}
		if err := errors.Join(errs...); err != nil {
			return "", err
		}
		return "Asked what the client supports.", nil
	}, d("Asks only for the kinds of input the client declared"))
}

func sleep(ctx *fastmcp.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

var _ = jsontext.Value(nil)
