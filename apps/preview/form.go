package preview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Field kinds: how the page renders an argument and how its text becomes
// a JSON value.
const (
	kindString  = "string"
	kindNumber  = "number"
	kindInteger = "integer"
	kindBoolean = "boolean"
	kindEnum    = "enum"
	kindJSON    = "json" // arrays, objects, unions and untyped values, typed as JSON text
)

// field is one input of the form built from a tool's input schema.
type field struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Kind        string `json:"kind"`
	Required    bool   `json:"required,omitempty"`
	// Format is the schema's format (date, email, uri...), a hint.
	Format string `json:"format,omitempty"`
	// Options are the enum's values, each as JSON text.
	Options []string `json:"options,omitempty"`
	// Default is the schema's default as the text the field starts with.
	Default string `json:"default,omitempty"`
}

// propSchema is the part of a property's JSON Schema the form uses.
type propSchema struct {
	Type        json.RawMessage   `json:"type"`
	Title       string            `json:"title"`
	Description string            `json:"description"`
	Format      string            `json:"format"`
	Enum        []json.RawMessage `json:"enum"`
	Default     json.RawMessage   `json:"default"`
}

// errBadSchema is matched by errors of formFields on a schema it cannot read.
var errBadSchema = errors.New("preview: input schema is not a JSON object schema")

// formFields maps a tool's input schema to form fields, in the order the
// schema lists its properties.
func formFields(schema json.RawMessage) ([]field, error) {
	if len(bytes.TrimSpace(schema)) == 0 {
		return nil, nil
	}
	var top struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(schema, &top); err != nil {
		return nil, fmt.Errorf("%w: %w", errBadSchema, err)
	}
	names, props, err := orderedObject(top.Properties)
	if err != nil {
		return nil, fmt.Errorf("%w: properties: %w", errBadSchema, err)
	}
	fields := make([]field, 0, len(names))
	for _, name := range names {
		var p propSchema
		if err := json.Unmarshal(props[name], &p); err != nil {
			// A boolean schema (true) or another shape: take JSON text.
			p = propSchema{}
		}
		f := field{
			Name:        name,
			Title:       p.Title,
			Description: p.Description,
			Format:      p.Format,
			Required:    slices.Contains(top.Required, name),
			Kind:        kindOf(p),
		}
		for _, e := range p.Enum {
			f.Options = append(f.Options, string(compact(e)))
		}
		f.Default = defaultText(f.Kind, p.Default)
		fields = append(fields, f)
	}
	return fields, nil
}

// kindOf picks the field kind of a property schema. A nullable type
// (["string","null"]) counts as its non-null type.
func kindOf(p propSchema) string {
	if len(p.Enum) > 0 {
		return kindEnum
	}
	var types []string
	var one string
	if json.Unmarshal(p.Type, &one) == nil {
		types = []string{one}
	} else {
		_ = json.Unmarshal(p.Type, &types)
	}
	types = slices.DeleteFunc(types, func(t string) bool { return t == "null" })
	if len(types) != 1 {
		return kindJSON
	}
	switch types[0] {
	case "string":
		return kindString
	case "number":
		return kindNumber
	case "integer":
		return kindInteger
	case "boolean":
		return kindBoolean
	}
	return kindJSON
}

// defaultText renders a schema default as the text a field of kind starts with.
func defaultText(kind string, def json.RawMessage) string {
	if len(def) == 0 || string(def) == "null" {
		return ""
	}
	if kind == kindString {
		var s string
		if json.Unmarshal(def, &s) == nil {
			return s
		}
	}
	if kind == kindJSON {
		var buf bytes.Buffer
		if json.Indent(&buf, def, "", "  ") == nil {
			return buf.String()
		}
	}
	return string(compact(def))
}

// fieldError says which form field could not be turned into an argument;
// the page shows its text.
type fieldError struct {
	Field string
	Err   error
}

func (e *fieldError) Error() string { return fmt.Sprintf("argument %q: %v", e.Field, e.Err) }

// Unwrap returns the cause.
func (e *fieldError) Unwrap() error { return e.Err }

// formArguments turns the texts typed into the form into the tool's
// arguments. An empty text leaves an optional argument out; an empty
// required string is sent as ""; other empty required fields are errors.
// Texts for names the form has no field for are refused.
func formArguments(fields []field, values map[string]string) (map[string]json.RawMessage, error) {
	known := map[string]bool{}
	for _, f := range fields {
		known[f.Name] = true
	}
	for name := range values {
		if !known[name] {
			return nil, &fieldError{Field: name, Err: errors.New("the tool's input schema has no such property")}
		}
	}
	args := map[string]json.RawMessage{}
	for _, f := range fields {
		text, ok := values[f.Name]
		if f.Kind != kindString {
			text = strings.TrimSpace(text)
		}
		if !ok || text == "" {
			switch {
			case !f.Required:
				continue
			case f.Kind == kindString:
				args[f.Name] = json.RawMessage(`""`)
				continue
			default:
				return nil, &fieldError{Field: f.Name, Err: errors.New("required")}
			}
		}
		v, err := fieldValue(f, text)
		if err != nil {
			return nil, &fieldError{Field: f.Name, Err: err}
		}
		args[f.Name] = v
	}
	return args, nil
}

func fieldValue(f field, text string) (json.RawMessage, error) {
	switch f.Kind {
	case kindString:
		return json.Marshal(text)
	case kindInteger:
		n, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", text)
		}
		return json.RawMessage(strconv.FormatInt(n, 10)), nil
	case kindNumber:
		n, err := strconv.ParseFloat(text, 64)
		if err != nil || !isFinite(n) {
			return nil, fmt.Errorf("%q is not a number", text)
		}
		return json.Marshal(n)
	case kindBoolean:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", text)
		}
		return json.Marshal(b)
	case kindEnum:
		c := compact(json.RawMessage(text))
		if !slices.Contains(f.Options, string(c)) {
			return nil, fmt.Errorf("%s is not one of %s", text, strings.Join(f.Options, ", "))
		}
		return c, nil
	default:
		if !json.Valid([]byte(text)) {
			return nil, fmt.Errorf("not valid JSON: %s", text)
		}
		return compact(json.RawMessage(text)), nil
	}
}

func isFinite(f float64) bool { return f-f == 0 }

// compact returns the JSON text without insignificant space, or raw itself
// when it is not valid JSON.
func compact(raw json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}

// orderedObject decodes a JSON object keeping the order of its keys.
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("not an object")
	}
	var names []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		name, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		if _, dup := vals[name]; !dup {
			names = append(names, name)
		}
		vals[name] = v
	}
	return names, vals, nil
}
