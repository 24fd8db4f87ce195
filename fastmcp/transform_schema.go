package fastmcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/jsonobj"
	"github.com/fastmcp-go/fastmcp/schema"
)

// derivedSchema is a derived tool's input schema and how its arguments
// map back to the source's.
type derivedSchema struct {
	schema      jsontext.Value
	toSource    map[string]string // published name → the source's name, for renamed arguments
	toPublished map[string]string // the reverse
	required    []string          // published names the client must send
	refused     map[string]bool   // names the client must not send: hidden, or renamed away
	hidden      []argRule
	defaults    map[string]any // published name → the default filled in when left out
}

// deriveSchema makes the derived input schema from the source's (src) as
// args say, and checks that it holds together. The schema keeps the
// source's text and order: only the members args change are rewritten.
func deriveSchema(src json.RawMessage, args []argRule) (*derivedSchema, error) {
	root, err := jsonobj.Parse(jsonobj.OrEmpty(src))
	if err != nil {
		return nil, fmt.Errorf("the source's input schema: %w", err)
	}
	var props jsonobj.Object
	if raw, ok := root.Get("properties"); ok {
		if props, err = jsonobj.Parse(raw); err != nil {
			return nil, fmt.Errorf("the source's input schema: properties: %w", err)
		}
	}
	var required []string
	if raw, ok := root.Get("required"); ok {
		_ = json.Unmarshal(raw, &required) // not a list of names: nothing is required
	}
	d := &derivedSchema{toSource: map[string]string{}, toPublished: map[string]string{}, refused: map[string]bool{}, defaults: map[string]any{}}
	rules := map[string]argRule{}
	for _, a := range args {
		if _, ok := props.Get(a.name); !ok {
			var names []string
			for _, m := range props {
				names = append(names, m.Name)
			}
			slices.Sort(names)
			return nil, fmt.Errorf("the source has no argument %q (its arguments: %s)", a.name, strings.Join(names, ", "))
		}
		rules[a.name] = a
	}
	var out jsonobj.Object
	var outRequired []string
	for _, m := range props {
		name := m.Name
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
			d.toPublished[name] = pub
			d.refused[name] = true
		}
		if _, taken := out.Get(pub); taken {
			return nil, fmt.Errorf("two arguments are published as %q: rename one of them", pub)
		}
		prop := m.Value
		if ruled && (a.Description != "" || a.Default != nil) {
			if prop, err = rewriteArg(name, prop, &a.ArgTransform); err != nil {
				return nil, err
			}
			if a.Default != nil {
				d.defaults[pub] = a.Default
			}
		}
		out = append(out, jsonobj.Member{Name: pub, Value: prop})
		if isRequired && (!ruled || a.Default == nil) {
			outRequired = append(outRequired, pub)
		}
	}
	for _, m := range out {
		delete(d.refused, m.Name) // a name published again (swapped) is the new argument's
	}
	if d.schema, err = assembleSchema(root, out, outRequired); err != nil {
		return nil, err
	}
	d.required = outRequired
	return d, nil
}

// assembleSchema writes the derived schema: root's members in order, with
// properties and required replaced (added when root had none).
func assembleSchema(root, props jsonobj.Object, required []string) ([]byte, error) {
	propsText := encodeObject(props)
	var reqText []byte
	if len(required) > 0 {
		var err error
		if reqText, err = json.Marshal(required); err != nil {
			return nil, err
		}
	}
	b := []byte{'{'}
	if _, ok := root.Get("type"); !ok {
		b = jsonobj.AppendMember(b, "type", []byte(`"object"`))
	}
	wrote := false
	for _, m := range root {
		switch m.Name {
		case "properties":
			b, wrote = jsonobj.AppendMember(b, "properties", propsText), true
		case "required":
			if reqText != nil {
				b = jsonobj.AppendMember(b, "required", reqText)
				reqText = nil
			}
		default:
			b = jsonobj.AppendMember(b, m.Name, m.Value)
		}
	}
	if !wrote {
		b = jsonobj.AppendMember(b, "properties", propsText)
	}
	if reqText != nil {
		b = jsonobj.AppendMember(b, "required", reqText)
	}
	return append(b, '}'), nil
}

// rewriteArg returns the schema prop of the argument name with a's
// description and default set.
func rewriteArg(name string, prop jsontext.Value, a *ArgTransform) (jsontext.Value, error) {
	pm, err := jsonobj.Parse(prop)
	if err != nil {
		return nil, fmt.Errorf("argument %q: its schema is not an object, so it cannot be given a description or default", name)
	}
	set := func(key string, v []byte) {
		for i := range pm {
			if pm[i].Name == key {
				pm[i].Value = v
				return
			}
		}
		pm = append(pm, jsonobj.Member{Name: key, Value: v})
	}
	if a.Description != "" {
		v, _ := jsontext.AppendQuote(nil, a.Description)
		set("description", v)
	}
	if a.Default != nil {
		v, err := json.Marshal(a.Default)
		if err != nil {
			return nil, fmt.Errorf("argument %q: its Default cannot be encoded as JSON: %w", name, err)
		}
		set("default", v)
	}
	return encodeObject(pm), nil
}

// encodeObject writes the members of o as a JSON object.
func encodeObject(o jsonobj.Object) []byte {
	b := []byte{'{'}
	for _, m := range o {
		b = jsonobj.AppendMember(b, m.Name, m.Value)
	}
	return append(b, '}')
}

// fillDefaults sets the defaults of the arguments args leaves out.
func (d *derivedSchema) fillDefaults(args map[string]any) {
	for pub, v := range d.defaults {
		if _, ok := args[pub]; !ok {
			args[pub] = v
		}
	}
}

// decode reads a call's arguments (raw, validated by nothing yet) under
// the published names: a JSON object (or nothing), no refused name, every
// required argument there; defaults filled in. A problem is the tool's
// error result.
func (d *derivedSchema) decode(name string, raw jsontext.Value) (map[string]any, *ToolResult) {
	args := map[string]any{}
	if len(raw) > 0 && raw.Kind() != 'n' {
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, errorResult(argumentsMessage("tool", name, err))
		}
	}
	var issues []schema.Issue
	for k := range args {
		if d.refused[k] {
			issues = append(issues, schema.Issue{Path: k, Rule: "unknown", Message: "is not an argument of this tool"})
		}
	}
	for _, r := range d.required {
		if v, ok := args[r]; !ok || v == nil {
			issues = append(issues, schema.Issue{Path: r, Rule: "required", Message: "is required"})
		}
	}
	if len(issues) > 0 {
		slices.SortFunc(issues, func(a, b schema.Issue) int { return strings.Compare(a.Path, b.Path) })
		return nil, errorResult(argumentsMessage("tool", name, &schema.ValidationError{Issues: issues}))
	}
	d.fillDefaults(args)
	return args, nil
}

// sourceArgs returns args (published names) as the source takes them:
// names mapped back, defaults filled in, hidden arguments added. A
// refused name (a WrapCall added it) or a Value's error is the tool's
// error result.
func (d *derivedSchema) sourceArgs(c *Context, name string, args map[string]any) (jsontext.Value, *ToolResult, error) {
	out := make(map[string]any, len(args)+len(d.hidden))
	for k, v := range args {
		switch src, renamed := d.toSource[k]; {
		case renamed:
			out[src] = v
		case d.refused[k]:
			return nil, errorResult(argumentsMessage("tool", name, &schema.ValidationError{Issues: []schema.Issue{
				{Path: k, Rule: "unknown", Message: "is not an argument of this tool"},
			}})), nil
		default:
			out[k] = v
		}
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
				return nil, errorResult(err.Error()), nil
			}
			out[h.name] = v
		case h.Default != nil:
			out[h.name] = h.Default
		}
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return nil, nil, fmt.Errorf("fastmcp: tool %s: encoding the arguments for its source: %w", name, err)
	}
	return raw, nil, nil
}

// renameIssues rewrites the paths of the source's validation issues to
// the published names.
func (d *derivedSchema) renameIssues(verr *schema.ValidationError) {
	for i := range verr.Issues {
		p := verr.Issues[i].Path
		end := strings.IndexAny(p, ".[")
		if end < 0 {
			end = len(p)
		}
		if pub, ok := d.toPublished[p[:end]]; ok {
			verr.Issues[i].Path = pub + p[end:]
		}
	}
}
