package fastmcp

import (
	"cmp"
	"encoding"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// Prompt arguments and URI template variables arrive as text. A textBinder
// turns such text into the JSON each field of an argument struct expects,
// then binds and validates it with the schema package like tool arguments:
//
//   - string fields, []byte fields (base64 text), and fields whose type
//     implements encoding.TextUnmarshaler (time.Time, say), take the text
//     as is;
//   - bool fields take what strconv.ParseBool accepts (true, false, 1, 0,
//     t, f, ...);
//   - integer and floating-point fields take a decimal number;
//   - pointers to those work like the type they point to;
//   - for template variables, slice fields take one element per value: the
//     values of an exploded variable ({/path*}) or of a comma-separated list;
//   - any other field (for prompt arguments, slices too) takes JSON text.
//
// Text that does not fit its field is an issue of rule "type" in the
// *schema.ValidationError, reported with every other problem at once.
type textBinder struct {
	st     *schema.Type
	fields map[string]textField // by JSON name
}

// textField says how text becomes one field's JSON.
type textField struct {
	kind textKind
	list bool     // a slice or array: one element per value
	elem textKind // the elements' kind, when list
}

type textKind uint8

const (
	textString textKind = iota
	textBool
	textInt
	textUint
	textFloat
	textJSON
)

var textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()

// kindOfText returns how text becomes a value of type t.
func kindOfText(t reflect.Type) textKind {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return textString
	}
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		return textString
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return textString // []byte: the text is base64
		}
	case reflect.Bool:
		return textBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return textInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return textUint
	case reflect.Float32, reflect.Float64:
		return textFloat
	}
	return textJSON
}

// fieldOfText describes field type t. A slice or array of a text kind
// (other than []byte) is a list.
func fieldOfText(t reflect.Type) textField {
	k := kindOfText(t)
	if k != textJSON {
		return textField{kind: k}
	}
	base := t
	for base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if (base.Kind() == reflect.Slice || base.Kind() == reflect.Array) && base.Elem().Kind() != reflect.Uint8 {
		if e := kindOfText(base.Elem()); e != textJSON {
			return textField{kind: textJSON, list: true, elem: e}
		}
	}
	return textField{kind: textJSON}
}

// newTextBinder prepares binding text to st's fields. With lists, slice
// fields take one element per value (URI template variables); without,
// they take JSON text like other composite types (prompt arguments).
func newTextBinder(st *schema.Type, lists bool) *textBinder {
	b := &textBinder{st: st, fields: map[string]textField{}}
	for _, f := range st.Fields() {
		tf := fieldOfText(f.Type)
		if !lists {
			tf.list = false
		}
		b.fields[f.Name] = tf
	}
	return b
}

// bind converts values (one or more texts per name) and binds them to the
// argument struct. A name that is no field is passed as a JSON string, so
// the schema's rules for unknown members apply. join joins several values
// given to a field that is not a list; nil joins with ",".
func (b *textBinder) bind(values map[string][]string, join func(name string) string) (reflect.Value, error) {
	names := slices.Sorted(maps.Keys(values))
	var issues []schema.Issue
	obj := make([]byte, 0, 64)
	obj = append(obj, '{')
	for _, name := range names {
		vs := values[name]
		f, ok := b.fields[name]
		if !ok {
			f = textField{kind: textString}
		}
		start := len(obj)
		if len(obj) > 1 {
			obj = append(obj, ',')
		}
		var err error
		if obj, err = jsontext.AppendQuote(obj, name); err != nil {
			issues = append(issues, schema.Issue{Path: name, Rule: "json", Message: "the name is not valid UTF-8"})
			obj = obj[:start]
			continue
		}
		obj = append(obj, ':')
		var problem string
		if f.list {
			obj = append(obj, '[')
			for i, v := range vs {
				if i > 0 {
					obj = append(obj, ',')
				}
				if obj, problem = appendText(obj, f.elem, v); problem != "" {
					break
				}
			}
			obj = append(obj, ']')
		} else {
			text := ""
			switch {
			case len(vs) == 1:
				text = vs[0]
			case len(vs) > 1:
				sep := ","
				if join != nil {
					sep = join(name)
				}
				text = strings.Join(vs, sep)
			}
			obj, problem = appendText(obj, f.kind, text)
		}
		if problem != "" {
			issues = append(issues, schema.Issue{Path: name, Rule: "type", Message: problem})
			obj = obj[:start]
		}
	}
	obj = append(obj, '}')
	v, err := b.st.Bind(obj)
	if len(issues) == 0 {
		return v, err
	}
	if err != nil {
		verr, ok := errors.AsType[*schema.ValidationError](err)
		if !ok {
			return reflect.Value{}, err
		}
		for _, is := range verr.Issues {
			// The member left out because its text did not convert may
			// now be reported missing: keep only the conversion issue.
			if !slices.ContainsFunc(issues, func(x schema.Issue) bool { return x.Path == is.Path }) {
				issues = append(issues, is)
			}
		}
	}
	slices.SortStableFunc(issues, func(a, b schema.Issue) int { return cmp.Compare(a.Path, b.Path) })
	return reflect.Value{}, &schema.ValidationError{Issues: issues}
}

// appendText appends the JSON for text given to a value of kind k, or
// returns a message saying why the text does not fit.
func appendText(b []byte, k textKind, text string) ([]byte, string) {
	switch k {
	case textString:
		out, err := jsontext.AppendQuote(b, text)
		if err != nil {
			return b, "must be valid UTF-8 text"
		}
		return out, ""
	case textBool:
		v, err := strconv.ParseBool(text)
		if err != nil {
			return b, fmt.Sprintf("must be boolean, got %q", text)
		}
		return strconv.AppendBool(b, v), ""
	case textInt:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return b, fmt.Sprintf("must be integer, got %q", text)
		}
		return strconv.AppendInt(b, v, 10), ""
	case textUint:
		v, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return b, fmt.Sprintf("must be integer >= 0, got %q", text)
		}
		return strconv.AppendUint(b, v, 10), ""
	case textFloat:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return b, fmt.Sprintf("must be number, got %q", text)
		}
		return strconv.AppendFloat(b, v, 'g', -1, 64), ""
	default:
		if !jsontext.Value(text).IsValid() {
			return b, fmt.Sprintf("must be JSON text, got %q", text)
		}
		return append(b, text...), ""
	}
}

// argumentsMessage words arguments refused by validation the same way for
// tools, prompts and resource templates: "invalid arguments for tool add:
// b: must be >= 0". what is "tool", "prompt" or "resource"; name is its
// name (a URI for a resource).
func argumentsMessage(what, name string, err error) string {
	return "invalid arguments for " + what + " " + name + ": " + err.Error()
}

// invalidArguments is the invalid-params error (-32602) for arguments a
// prompt or resource template refused, worded by argumentsMessage. It
// matches protocol.ErrInvalidParams under errors.Is, and a
// *schema.ValidationError under errors.As when validation refused them.
func invalidArguments(what, name string, err error) error {
	return &argumentsError{wire: protocol.NewError(protocol.CodeInvalidParams, argumentsMessage(what, name, err)), err: err}
}

// argumentsError carries both the wire error and the validation error.
type argumentsError struct {
	wire *protocol.Error
	err  error
}

func (e *argumentsError) Error() string   { return e.wire.Message }
func (e *argumentsError) Unwrap() []error { return []error{e.wire, e.err} }
