package schema

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// TextOptions says how a [TextBinder] reads text. The zero value reads
// prompt arguments: one text per name, composite fields as JSON text.
type TextOptions struct {
	// Lists makes a slice or array field of a text kind take one element
	// per value, as URI template variables need (the values of an
	// exploded variable {/path*}, or of a comma-separated list). Default:
	// such a field takes JSON text like any other composite field.
	Lists bool
	// Join returns the separator that joins several values given to a
	// field that is not a list. Default (nil): ",".
	Join func(name string) string
}

// A TextBinder binds arguments that arrive as text, such as prompt
// arguments and URI template variables, to a Type's struct. It turns each
// text into the JSON its field expects, then binds and checks the whole
// object with [Type.Bind]:
//
//   - string fields, []byte fields (base64 text), and fields whose type
//     implements encoding.TextUnmarshaler (time.Time, say), take the text
//     as is;
//   - bool fields take what strconv.ParseBool accepts (true, false, 1, 0,
//     t, f, ...);
//   - integer and floating-point fields take a decimal number;
//   - pointers to those work like the type they point to;
//   - under [TextOptions.Lists], slice and array fields of those take one
//     element per value;
//   - any other field takes JSON text.
//
// Text that does not fit its field is an [Issue] of rule "type" in the
// [*ValidationError], reported with every other problem at once. A
// TextBinder is immutable and safe for concurrent use.
type TextBinder struct {
	t      *Type
	opts   TextOptions
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

// NewTextBinder prepares binding text to t's top-level fields.
func NewTextBinder(t *Type, opts TextOptions) *TextBinder {
	b := &TextBinder{t: t, opts: opts, fields: map[string]textField{}}
	for _, f := range t.Fields() {
		tf := fieldOfText(f.Type)
		if !opts.Lists {
			tf.list = false
		}
		b.fields[f.Name] = tf
	}
	return b
}

// Plain reports whether the field named name takes plain text (under
// [TextOptions.Lists], one plain text per element) rather than JSON text.
// A URI template variable can fill only such a field. A name that is no
// field takes plain text.
func (b *TextBinder) Plain(name string) bool {
	f, ok := b.fields[name]
	return !ok || f.kind != textJSON || f.list
}

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

// Bind converts values (one or more texts per name) to JSON and binds it
// to the Type, as [Type.Bind] does. A name that is no field is passed as a
// JSON string, so the Type's rules for unknown members apply. It does not
// keep values.
func (b *TextBinder) Bind(values map[string][]string) (reflect.Value, error) {
	var issues []Issue
	obj := make([]byte, 0, 64)
	obj = append(obj, '{')
	for _, name := range slices.Sorted(maps.Keys(values)) {
		var is *Issue
		if obj, is = b.appendMember(obj, name, values[name]); is != nil {
			issues = append(issues, *is)
		}
	}
	obj = append(obj, '}')
	v, err := b.t.Bind(obj)
	if len(issues) == 0 {
		return v, err
	}
	if err != nil {
		verr, ok := errors.AsType[*ValidationError](err)
		if !ok {
			return reflect.Value{}, err
		}
		for _, is := range verr.Issues {
			// The member left out because its text did not convert may
			// now be reported missing: keep only the conversion issue.
			if !slices.ContainsFunc(issues, func(x Issue) bool { return x.Path == is.Path }) {
				issues = append(issues, is)
			}
		}
	}
	slices.SortStableFunc(issues, func(a, b Issue) int { return cmp.Compare(a.Path, b.Path) })
	return reflect.Value{}, &ValidationError{Issues: issues}
}

// appendMember appends the member name with the JSON for its texts vs to
// obj (an object being written), or leaves obj as it was and returns the
// issue that says why the text does not fit.
func (b *TextBinder) appendMember(obj []byte, name string, vs []string) ([]byte, *Issue) {
	f, ok := b.fields[name]
	if !ok {
		f = textField{kind: textString}
	}
	start := len(obj)
	if len(obj) > 1 {
		obj = append(obj, ',')
	}
	obj, err := jsontext.AppendQuote(obj, name)
	if err != nil {
		return obj[:start], &Issue{Path: name, Rule: "json", Message: "the name is not valid UTF-8"}
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
				return obj[:start], &Issue{Path: name, Rule: "type", Message: problem}
			}
		}
		return append(obj, ']'), nil
	}
	text := ""
	switch {
	case len(vs) == 1:
		text = vs[0]
	case len(vs) > 1:
		sep := ","
		if b.opts.Join != nil {
			sep = b.opts.Join(name)
		}
		text = strings.Join(vs, sep)
	}
	if obj, problem = appendText(obj, f.kind, text); problem != "" {
		return obj[:start], &Issue{Path: name, Rule: "type", Message: problem}
	}
	return obj, nil
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
