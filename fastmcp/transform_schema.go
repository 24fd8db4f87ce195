package fastmcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/schema"
)

// derivedSchema is a derived tool's input schema and how its arguments
// map back to the source's.
type derivedSchema struct {
	schema   jsontext.Value
	toSource map[string]string // published name → the source's name, for renamed arguments
	refused  map[string]bool   // names the client must not send: hidden, or renamed away
	hidden   []argRule
	defaults map[string]any // published name → the default filled in when left out
}

// deriveSchema makes the derived input schema from the source's (src) as
// args say, and checks that it holds together.
func deriveSchema(src json.RawMessage, args []argRule) (*derivedSchema, error) {
	root := map[string]any{}
	if len(src) > 0 {
		dec := json.NewDecoder(bytes.NewReader(src))
		dec.UseNumber()
		if err := dec.Decode(&root); err != nil {
			return nil, fmt.Errorf("the source's input schema: %w", err)
		}
	}
	props, _ := root["properties"].(map[string]any)
	var required []string
	if rs, ok := root["required"].([]any); ok {
		for _, r := range rs {
			if s, ok := r.(string); ok {
				required = append(required, s)
			}
		}
	}
	d := &derivedSchema{toSource: map[string]string{}, refused: map[string]bool{}, defaults: map[string]any{}}
	rules := map[string]argRule{}
	for _, a := range args {
		if _, ok := props[a.name]; !ok {
			return nil, fmt.Errorf("the source has no argument %q (its arguments: %s)", a.name, strings.Join(slices.Sorted(maps.Keys(props)), ", "))
		}
		rules[a.name] = a
	}
	out := map[string]any{}
	var outRequired []string
	for _, name := range slices.Sorted(maps.Keys(props)) {
		a, ruled := rules[name]
		isRequired := slices.Contains(required, name)
		if a.Hide {
			if isRequired && a.Value == nil && a.Default == nil {
				return nil, fmt.Errorf("argument %q is required by the source: give the hidden argument a Value or a Default", name)
			}
			d.hidden = append(d.hidden, a)
			d.refused[name] = true
			continue
		}
		pub := name
		if ruled && a.Rename != "" && a.Rename != name {
			pub = a.Rename
			d.toSource[pub] = name
			d.refused[name] = true
		}
		if _, taken := out[pub]; taken {
			return nil, fmt.Errorf("two arguments are published as %q: rename one of them", pub)
		}
		prop := props[name]
		if ruled && (a.Description != "" || a.Default != nil) {
			pm, ok := prop.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("argument %q: its schema is not an object, so it cannot be given a description or default", name)
			}
			pm = maps.Clone(pm)
			if a.Description != "" {
				pm["description"] = a.Description
			}
			if a.Default != nil {
				pm["default"] = a.Default
				d.defaults[pub] = a.Default
			}
			prop = pm
		}
		out[pub] = prop
		if isRequired && (!ruled || a.Default == nil) {
			outRequired = append(outRequired, pub)
		}
	}
	for pub := range out {
		delete(d.refused, pub) // a name published again (swapped) is the new argument's
	}
	root = maps.Clone(root)
	if root["type"] == nil {
		root["type"] = "object"
	}
	root["properties"] = out
	if len(outRequired) > 0 {
		root["required"] = outRequired
	} else {
		delete(root, "required")
	}
	b, err := json.Marshal(root)
	if err != nil {
		return nil, fmt.Errorf("encoding the derived input schema: %w", err)
	}
	d.schema = b
	if err := d.checkDefaults(root); err != nil {
		return nil, err
	}
	return d, nil
}

// checkDefaults refuses a Default its argument's schema does not accept.
func (d *derivedSchema) checkDefaults(root map[string]any) error {
	props := root["properties"].(map[string]any)
	for _, pub := range slices.Sorted(maps.Keys(d.defaults)) {
		one := map[string]any{"type": "object", "properties": map[string]any{pub: props[pub]}}
		if defs, ok := root["$defs"]; ok {
			one["$defs"] = defs
		}
		sb, err := json.Marshal(one)
		if err != nil {
			return err
		}
		st, err := schema.FromJSON(sb, schema.Options{})
		if err != nil {
			return fmt.Errorf("argument %q: %w", pub, err)
		}
		vb, err := json.Marshal(map[string]any{pub: d.defaults[pub]})
		if err != nil {
			return fmt.Errorf("argument %q: its Default cannot be encoded as JSON: %w", pub, err)
		}
		if _, err := st.Bind(vb); err != nil {
			return fmt.Errorf("argument %q: its Default does not satisfy its schema: %w", pub, err)
		}
	}
	return nil
}

// fillDefaults sets the defaults of the arguments args leaves out.
func (d *derivedSchema) fillDefaults(args map[string]any) {
	for pub, v := range d.defaults {
		if _, ok := args[pub]; !ok {
			args[pub] = v
		}
	}
}

// call calls the source through run with args (published names) mapped
// back to the source's names, defaults filled in and the hidden
// arguments added.
func (d *derivedSchema) call(c *Context, args map[string]any, run func(*Context, jsontext.Value) (*ToolResult, error)) (*ToolResult, error) {
	var issues []schema.Issue
	out := make(map[string]any, len(args)+len(d.hidden))
	for k, v := range args {
		switch src, renamed := d.toSource[k]; {
		case renamed:
			out[src] = v
		case d.refused[k]:
			issues = append(issues, schema.Issue{Path: k, Rule: "unknown", Message: "is not an argument of this tool"})
		default:
			out[k] = v
		}
	}
	if len(issues) > 0 {
		slices.SortFunc(issues, func(a, b schema.Issue) int { return strings.Compare(a.Path, b.Path) })
		return errorResult(argumentsMessage("tool", c.name, &schema.ValidationError{Issues: issues})), nil
	}
	for pub, v := range d.defaults {
		src := pub
		if s, ok := d.toSource[pub]; ok {
			src = s
		}
		if _, ok := out[src]; !ok {
			out[src] = v
		}
	}
	for _, h := range d.hidden {
		switch {
		case h.Value != nil:
			v, err := h.Value(c)
			if err != nil {
				return errorResult(err.Error()), nil
			}
			out[h.name] = v
		case h.Default != nil:
			out[h.name] = h.Default
		}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("fastmcp: tool %s: encoding the arguments for its source: %w", c.name, err)
	}
	return run(c, raw)
}
