package main

import (
	"fmt"
	"strings"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TemplateID binds the {id} of test://template/{id}/data.
type TemplateID struct {
	ID string `json:"id" jsonschema:"description=Record id"`
}

// TemplateData is what the template resource returns.
type TemplateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

func registerResources(s *fastmcp.Server) {
	d, title := fastmcp.Description, fastmcp.Title
	s.Resource("test://static-text", func() string { return "This is the content of the static text resource." },
		fastmcp.ResourceName("static-text"), title("Static Text Resource"), d("A static text resource for testing"), fastmcp.MIMEType("text/plain"))
	s.Resource("test://static-binary", func() []byte { return png1x1 },
		fastmcp.ResourceName("static-binary"), title("Static Binary Resource"), d("A static binary resource (image) for testing"), fastmcp.MIMEType("image/png"))
	s.Resource("test://watched-resource", func() string { return "Watched resource content" },
		fastmcp.ResourceName("watched-resource"), title("Watched Resource"), d("A resource clients can subscribe to"), fastmcp.MIMEType("text/plain"))
	s.Resource("test://template/{id}/data", func(in TemplateID) TemplateData {
		return TemplateData{ID: in.ID, TemplateTest: true, Data: "Data for ID: " + in.ID}
	}, fastmcp.ResourceName("template"), title("Resource Template"), d("A resource template with parameter substitution"), fastmcp.MIMEType("application/json"))
}

// ArgsPrompt are the arguments of test_prompt_with_arguments.
type ArgsPrompt struct {
	Arg1 string `json:"arg1" jsonschema:"description=First test argument"`
	Arg2 string `json:"arg2" jsonschema:"description=Second test argument"`
}

// EmbeddedPrompt are the arguments of test_prompt_with_embedded_resource.
type EmbeddedPrompt struct {
	ResourceURI string `json:"resourceUri" jsonschema:"description=URI of the resource to embed"`
}

// Context is an elicitation form asking for context.
type Context struct {
	Context string `json:"context"`
}

func registerPrompts(s *fastmcp.Server) {
	d, title := fastmcp.Description, fastmcp.Title
	s.Prompt("test_simple_prompt", func() string { return "This is a simple prompt for testing." },
		title("Simple Test Prompt"), d("A simple prompt without arguments"))
	s.Prompt("test_prompt_with_arguments", func(in ArgsPrompt) string {
		return fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2)
	}, title("Prompt With Arguments"), d("A prompt with required arguments"),
		fastmcp.CompleteArg("arg1", fastmcp.Choices("test", "testing", "tested", "other")))
	s.Prompt("test_prompt_with_embedded_resource", func(in EmbeddedPrompt) []fastmcp.PromptMessage {
		return []fastmcp.PromptMessage{
			fastmcp.UserMessage(fastmcp.EmbeddedText(in.ResourceURI, "text/plain", "Embedded resource content for testing.")),
			fastmcp.UserMessage(fastmcp.Text("Please process the embedded resource above.")),
		}
	}, title("Prompt With Embedded Resource"), d("A prompt that includes an embedded resource"))
	s.Prompt("test_prompt_with_image", func() []fastmcp.PromptMessage {
		return []fastmcp.PromptMessage{
			fastmcp.UserMessage(fastmcp.Image(png1x1, "image/png")),
			fastmcp.UserMessage(fastmcp.Text("Please analyze the image above.")),
		}
	}, title("Prompt With Image"), d("A prompt that includes image content"))
	s.Prompt("test_input_required_result_prompt", func(ctx *fastmcp.Context) (string, error) {
		var c Context
		if _, err := ctx.Elicit("What context should the prompt use?", &c, fastmcp.InputKey("user_context")); err != nil {
			return "", err
		}
		return "Use this context: " + strings.TrimSpace(c.Context), nil
	}, title("Prompt Needing Input"), d("A prompt that asks the user for context before it is built"))
}
