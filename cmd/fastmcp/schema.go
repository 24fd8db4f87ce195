package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// propSchema is what the command reads of a property's JSON Schema to
// type a value typed on the command line, or prompt for one.
type propSchema struct {
	Type        json.RawMessage `json:"type"` // "integer" or ["integer", "null"]
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Default     json.RawMessage `json:"default"`
	Enum        []any           `json:"enum"`
	EnumNames   []string        `json:"enumNames"`
	OneOf       []choice        `json:"oneOf"`
	AnyOf       []propSchema    `json:"anyOf"`
	Items       *propSchema     `json:"items"`
	Format      string          `json:"format"`
	Const       any             `json:"const"`
}

// choice is one titled option of an enum written as oneOf/anyOf of
// consts (SEP-1330).
type choice struct {
	Const any    `json:"const"`
	Title string `json:"title"`
}

// types returns the JSON types the property allows, nil if it says none.
func (p *propSchema) types() []string {
	var one string
	var many []string
	switch {
	case json.Unmarshal(p.Type, &one) == nil:
		many = []string{one}
	case json.Unmarshal(p.Type, &many) == nil:
	}
	for i := range p.AnyOf {
		many = append(many, p.AnyOf[i].types()...)
	}
	slices.Sort(many)
	return slices.Compact(many)
}

// choices returns the allowed values of an enum property, with their
// titles when the schema gives them.
func (p *propSchema) choices() []choice {
	var cs []choice
	for i, v := range p.Enum {
		c := choice{Const: v}
		if i < len(p.EnumNames) {
			c.Title = p.EnumNames[i]
		}
		cs = append(cs, c)
	}
	for _, c := range p.OneOf {
		if c.Const != nil {
			cs = append(cs, c)
		}
	}
	for _, a := range p.AnyOf {
		if a.Const != nil {
			cs = append(cs, choice{Const: a.Const, Title: a.Title})
		}
	}
	return cs
}

// objectSchema is an object schema: its properties in the order the
// schema lists them.
type objectSchema struct {
	names      []string
	props      map[string]*propSchema
	raw        map[string]json.RawMessage // each property's schema as written
	required   []string
	additional bool // other members are allowed (additionalProperties is not false and there are no properties listed)
	unchecked  bool // call --raw: any name, and a value the schema's type refuses is sent as JSON or a string
}

// parseObjectSchema reads an object schema (a tool's inputSchema, an
// elicitation's requestedSchema).
func parseObjectSchema(raw []byte) (*objectSchema, error) {
	var s struct {
		Properties           json.RawMessage `json:"properties"`
		Required             []string        `json:"required"`
		AdditionalProperties json.RawMessage `json:"additionalProperties"`
	}
	o := &objectSchema{props: map[string]*propSchema{}, raw: map[string]json.RawMessage{}}
	if len(bytes.TrimSpace(raw)) == 0 {
		o.additional = true
		return o, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("reading the schema: %w", err)
	}
	o.required = s.Required
	names, err := objectKeys(s.Properties)
	if err != nil {
		return nil, fmt.Errorf("reading the schema's properties: %w", err)
	}
	var props map[string]json.RawMessage
	if len(names) > 0 {
		if err := json.Unmarshal(s.Properties, &props); err != nil {
			return nil, err
		}
	}
	for _, n := range names {
		var p propSchema
		_ = json.Unmarshal(props[n], &p) // a property schema we cannot read (true, {}): untyped
		o.names = append(o.names, n)
		o.props[n] = &p
		o.raw[n] = props[n]
	}
	o.additional = len(names) == 0 && string(bytes.TrimSpace(s.AdditionalProperties)) != "false"
	return o, nil
}

// objectKeys returns the member names of a JSON object, in order.
func objectKeys(raw json.RawMessage) ([]string, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// isRequired reports whether the schema requires the property name.
func (o *objectSchema) isRequired(name string) bool { return slices.Contains(o.required, name) }

// fieldSchema is an object schema holding the property name alone, to
// check one answer of a form as soon as it is typed.
func (o *objectSchema) fieldSchema(name string) []byte {
	b, err := json.Marshal(map[string]any{"type": "object", "properties": map[string]json.RawMessage{name: o.raw[name]}})
	if err != nil || len(o.raw[name]) == 0 {
		return nil
	}
	return b
}
