package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// inputHandlers are the client options that answer the server's
// requests for user input.
func (a *app) inputHandlers() []client.Option {
	return []client.Option{client.WithElicitation(a.elicit), client.WithURLElicitation(a.elicitURL)}
}

// elicit answers the server's elicitation requests. With --no-input it
// declines them; otherwise it asks the user on stderr, reading the answers
// from stdin a line at a time: whether to answer at all (yes, no =
// decline, cancel), then one line per field of the requested schema,
// typed like key=value arguments, an empty line taking the default.
func (a *app) elicit(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
	st := a.status()
	if a.noInput {
		st.line("The server asked for input (declined: --no-input): " + oneLine(req.Message))
		return client.DeclineElicitation(), nil
	}
	o, err := parseObjectSchema(req.RequestedSchema)
	if err != nil {
		return nil, err
	}
	st.line("The server asks: " + req.Message)
	for {
		ans, err := a.ask("Answer? [Y]es, [n]o (decline), [c]ancel: ")
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(strings.TrimSpace(ans)) {
		case "", "y", "yes":
		case "n", "no":
			return client.DeclineElicitation(), nil
		case "c", "cancel":
			return client.CancelElicitation(), nil
		default:
			continue
		}
		break
	}
	for {
		content, err := a.fillForm(ctx, o)
		if err != nil {
			return nil, err
		}
		if err := validateArgs("the answer", req.RequestedSchema, content); err != nil {
			st.line(strings.TrimPrefix(err.Error(), "arguments of ") + " — again:")
			continue
		}
		return client.AcceptElicitation(content)
	}
}

// elicitURL answers the server's requests to send the user to a URL
// (elicitation in URL mode): it shows the URL and opens a browser (unless
// --no-browser), then waits for the user to say they are done there.
// With --no-input it declines.
func (a *app) elicitURL(ctx context.Context, req *client.ElicitRequest) (*client.ElicitResult, error) {
	st := a.status()
	if a.noInput {
		st.line("The server asked to send you to " + req.URL + " (declined: --no-input): " + oneLine(req.Message))
		return client.DeclineElicitation(), nil
	}
	st.line("The server asks you to open this URL: " + req.Message + "\n  " + req.URL)
	for {
		ans, err := a.ask("Open it? [Y]es, [n]o (decline), [c]ancel: ")
		if err != nil {
			return nil, err
		}
		switch strings.ToLower(strings.TrimSpace(ans)) {
		case "", "y", "yes":
			if !a.noBrowser {
				if err := oauthclient.OpenBrowser(ctx, req.URL); err != nil {
					st.line("(no browser could be opened: open the URL yourself)")
				}
			}
			return &client.ElicitResult{Action: "accept"}, nil
		case "n", "no":
			return client.DeclineElicitation(), nil
		case "c", "cancel":
			return client.CancelElicitation(), nil
		}
	}
}

// fillForm asks for every field of o.
func (a *app) fillForm(ctx context.Context, o *objectSchema) (map[string]json.RawMessage, error) {
	st := a.status()
	content := map[string]json.RawMessage{}
	for _, name := range o.names {
		p := o.props[name]
		for {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			s, err := a.ask(fieldPrompt(name, p, o.isRequired(name)))
			if err != nil {
				return nil, err
			}
			if s == "" {
				if len(p.Default) > 0 || !o.isRequired(name) {
					break // the server applies its default (the client fills it in too)
				}
				st.line("  " + name + " is required")
				continue
			}
			v, err := convert(p, s)
			if err != nil {
				st.line("  " + err.Error())
				continue
			}
			if err := validateArgs("", o.fieldSchema(name), map[string]json.RawMessage{name: v}); err != nil {
				st.line("  " + strings.TrimPrefix(err.Error(), "arguments of : "))
				continue
			}
			content[name] = v
			break
		}
	}
	return content, nil
}

// fieldPrompt is the question for one field:
// "  age (Your age, integer) [default 30]: ".
func fieldPrompt(name string, p *propSchema, required bool) string {
	var b strings.Builder
	b.WriteString("  ")
	if p.Title != "" {
		b.WriteString(p.Title)
	} else {
		b.WriteString(name)
	}
	var notes []string
	if p.Description != "" {
		notes = append(notes, p.Description)
	}
	if cs := p.choices(); len(cs) > 0 {
		notes = append(notes, "one of: "+listChoices(cs))
	} else if p.Items != nil && len(p.Items.choices()) > 0 {
		notes = append(notes, "any of, comma-separated: "+listChoices(p.Items.choices()))
	} else if ts := p.types(); len(ts) > 0 {
		notes = append(notes, strings.Join(ts, " or "))
	}
	if p.Format != "" {
		notes = append(notes, p.Format)
	}
	if !required {
		notes = append(notes, "optional")
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, "; ") + ")")
	}
	if len(p.Default) > 0 {
		b.WriteString(" [" + string(compactJSON(p.Default)) + "]")
	}
	b.WriteString(": ")
	return b.String()
}

// ask asks a question on stderr and returns the line typed on stdin. When
// stdin is not a terminal (answers piped in), the answer is echoed, so
// that stderr reads as a conversation.
func (a *app) ask(question string) (string, error) {
	st := a.status()
	st.prompt(question)
	s, err := a.in.readLine()
	if err != nil {
		st.line("")
		return "", err
	}
	if !a.stdinTerm {
		st.line(s)
	}
	return s, nil
}

// listChoices lists the values of an enum, each with its title if it has
// one: "hero-1 = Superman, hero-2 = Green Lantern".
func listChoices(cs []choice) string {
	var vs []string
	for _, c := range cs {
		v := fmt.Sprint(c.Const)
		if c.Title != "" && c.Title != v {
			v += " = " + c.Title
		}
		vs = append(vs, v)
	}
	return strings.Join(vs, ", ")
}
