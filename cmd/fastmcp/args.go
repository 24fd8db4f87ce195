package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/fastmcp-go/fastmcp/schema"
	_ "github.com/fastmcp-go/fastmcp/schema/jsonvalidate" // FromJSON: the schemas of the tools it calls
)

// parseArgs builds the arguments object of a tool call or prompt from
// --args (a JSON object, may be empty) and key=value words, typed by the
// schema: with "type":"integer", n=3 is the number 3; with "boolean",
// yes/no/true/false/1/0; arrays and objects are written as JSON (an array
// of strings also as a,b,c). key:=JSON takes the value as JSON whatever
// the schema says. Members of key=value override those of --args. With
// o.unchecked (call --raw), a name the schema does not list is taken, and
// a value its type refuses is sent as JSON when it is JSON, else as a
// string, for the server to judge.
func parseArgs(o *objectSchema, jsonArgs string, words []string) (map[string]json.RawMessage, error) {
	args := map[string]json.RawMessage{}
	if strings.TrimSpace(jsonArgs) != "" {
		if err := json.Unmarshal([]byte(jsonArgs), &args); err != nil || args == nil {
			return nil, usage(fmt.Errorf("--args: want a JSON object, such as '{\"n\": 3}': %v", orNull(err)))
		}
	}
	for _, w := range words {
		key, val, ok := strings.Cut(w, "=")
		if !ok || key == "" {
			return nil, usage(fmt.Errorf("%q: want key=value (or key:=JSON)", w))
		}
		if k, isJSON := strings.CutSuffix(key, ":"); isJSON {
			if !json.Valid([]byte(val)) {
				return nil, usage(fmt.Errorf("%s:=%s: not valid JSON", k, val))
			}
			args[k] = json.RawMessage(val)
			continue
		}
		p, known := o.props[key]
		if !known && !o.additional && !o.unchecked {
			return nil, usage(fmt.Errorf("%q: no argument %q; the arguments are: %s", w, key, strings.Join(o.names, ", ")))
		}
		if p == nil {
			p = &propSchema{}
		}
		v, err := convert(p, val)
		if err != nil && o.unchecked {
			v, err = convert(&propSchema{}, val) // untyped: JSON if it is JSON, else a string
		}
		if err != nil {
			return nil, usage(fmt.Errorf("%s=%s: %w", key, val, err))
		}
		args[key] = v
	}
	return args, nil
}

// orNull explains why --args was not an object: a JSON error, or null.
func orNull(err error) error {
	if err == nil {
		return errors.New("got null")
	}
	return err
}

var integerRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// convert types the text s as the property p says.
func convert(p *propSchema, s string) (json.RawMessage, error) {
	types := p.types()
	if len(types) == 0 {
		if cs := p.choices(); len(cs) > 0 {
			return convertChoice(cs, s)
		}
		// Untyped: JSON when it is JSON, else a string.
		if json.Valid([]byte(s)) {
			return json.RawMessage(s), nil
		}
		return quote(s), nil
	}
	if s == "null" && slices.Contains(types, "null") {
		return json.RawMessage("null"), nil
	}
	if cs := p.choices(); len(cs) > 0 && !slices.Contains(types, "array") {
		return convertChoice(cs, s)
	}
	var errs []string
	// Try the most specific types first, a string last.
	for _, t := range []string{"boolean", "integer", "number", "array", "object", "string"} {
		if !slices.Contains(types, t) {
			continue
		}
		v, err := convertAs(t, p, s)
		if err == nil {
			return v, nil
		}
		errs = append(errs, err.Error())
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("the schema allows %s, which cannot be typed on the command line; use key:=JSON", strings.Join(types, " or "))
	}
	return nil, errors.New(strings.Join(errs, ", or "))
}

// convertAs types s as the JSON type t, or says what it wanted.
func convertAs(t string, p *propSchema, s string) (json.RawMessage, error) {
	switch t {
	case "boolean":
		switch strings.ToLower(s) {
		case "true", "yes", "y", "on", "1":
			return json.RawMessage("true"), nil
		case "false", "no", "n", "off", "0":
			return json.RawMessage("false"), nil
		}
		return nil, errors.New("want a boolean (true or false)")
	case "integer":
		if integerRE.MatchString(s) {
			return json.RawMessage(s), nil
		}
		return nil, errors.New("want an integer")
	case "number":
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, errors.New("want a number")
		}
		if json.Valid([]byte(s)) {
			return json.RawMessage(s), nil
		}
		return json.RawMessage(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case "array":
		if strings.HasPrefix(strings.TrimSpace(s), "[") {
			if !json.Valid([]byte(s)) {
				return nil, errors.New("want a JSON array, such as [1,2]")
			}
			return json.RawMessage(s), nil
		}
		// a,b,c for an array of strings or of choices
		if p.Items != nil {
			var out []json.RawMessage
			for _, part := range strings.Split(s, ",") {
				v, err := convert(p.Items, strings.TrimSpace(part))
				if err != nil {
					return nil, fmt.Errorf("item %q: %w", part, err)
				}
				out = append(out, v)
			}
			if s == "" {
				out = []json.RawMessage{}
			}
			b, _ := json.Marshal(out)
			return b, nil
		}
		return nil, errors.New("want a JSON array, such as [1,2]")
	case "object":
		if v := bytes.TrimSpace([]byte(s)); len(v) > 0 && v[0] == '{' && json.Valid(v) {
			return json.RawMessage(s), nil
		}
		return nil, errors.New(`want a JSON object, such as {"a":1}`)
	case "string":
		return quote(s), nil
	}
	return nil, fmt.Errorf("unknown type %s", t)
}

// convertChoice picks the value of an enum, by its value or its title.
func convertChoice(cs []choice, s string) (json.RawMessage, error) {
	var names []string
	for _, c := range cs {
		v := fmt.Sprint(c.Const)
		if v == s || (c.Title != "" && strings.EqualFold(c.Title, s)) {
			b, err := json.Marshal(c.Const)
			return b, err
		}
		names = append(names, v)
	}
	return nil, fmt.Errorf("want one of %s", strings.Join(names, ", "))
}

// quote is s as a JSON string.
func quote(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// validateArgs checks args against a JSON Schema as the server will (so
// mistakes are reported by field before anything is sent). A schema the
// validator cannot read is left to the server.
func validateArgs(what string, inputSchema []byte, args map[string]json.RawMessage) error {
	if len(bytes.TrimSpace(inputSchema)) == 0 {
		return nil
	}
	typ, err := schema.FromJSON(inputSchema, schema.Options{})
	if err != nil {
		return nil
	}
	b, err := json.Marshal(args)
	if err != nil {
		return err
	}
	if _, err := typ.Bind(b); err != nil {
		var ve *schema.ValidationError
		if !errors.As(err, &ve) {
			return usage(fmt.Errorf("arguments of %s: %w", what, err))
		}
		var parts []string
		for _, is := range ve.Issues {
			path := is.Path
			if path == "" {
				path = "arguments"
			}
			parts = append(parts, path+": "+is.Message)
		}
		return usage(fmt.Errorf("arguments of %s: %s", what, strings.Join(parts, "; ")))
	}
	return nil
}
