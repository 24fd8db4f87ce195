package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fastmcp-go/fastmcp/internal/headername"
)

// Header is a tool parameter mirrored into an HTTP header (SEP-2243): the
// Streamable HTTP client sends the value at Path as "Mcp-Param-{Name}".
type Header struct {
	// Name is the x-mcp-header value: the part after "Mcp-Param-".
	Name string
	// Path is the chain of property names from the arguments object to the
	// annotated property, e.g. ["region"] or ["target", "region"].
	Path []string
}

const headerKeyword = "x-mcp-header"

// maxSafeInteger is 2^53-1, the largest integer a double holds exactly.
const maxSafeInteger = "9007199254740991"

// findHeaders collects x-mcp-header annotations and checks them against the
// rules of the 2026-07-28 Streamable HTTP transport ("Custom Headers from
// Tool Parameters"): a non-empty HTTP token, unique ignoring case, on a
// property of type string, integer or boolean, reachable from the root
// through "properties" alone.
func findHeaders(root *object) ([]Header, error) {
	var out []Header
	var seen map[string]string
	// at is the keyword path to the current schema, as segments after "#";
	// it becomes text only for an error.
	at := make([]string, 0, 32)
	where := func() string { return "#" + strings.Join(at, "") }
	var walk func(v any, static bool, chain []string) error
	walk = func(v any, static bool, chain []string) error {
		s, ok := v.(*object)
		if !ok {
			return nil
		}
		if hv, ok := s.get(headerKeyword); ok {
			name, isStr := hv.(string)
			if !isStr {
				return fmt.Errorf("%s at %s must be a string: set it to the header name", headerKeyword, where())
			}
			if !static || len(chain) == 0 {
				return fmt.Errorf("%s %q at %s is not reachable from the root through \"properties\" alone (it is inside items, $defs, $ref, or a composition): put it on a plain property, and do not use KeepRefs for it", headerKeyword, name, where())
			}
			if err := headername.Check(name); err != nil {
				return fmt.Errorf("%s %q at %s: %v", headerKeyword, name, where(), err)
			}
			typ, _ := s.get("type")
			switch typ {
			case "string", "integer", "boolean":
			default:
				return fmt.Errorf("%s %q at %s: the property must have type string, integer or boolean (not %v): header values are only defined for those", headerKeyword, name, where(), typ)
			}
			key := strings.ToLower(name)
			if other, dup := seen[key]; dup {
				return fmt.Errorf("%s %q at %s repeats %q (header names are compared ignoring case): rename one", headerKeyword, name, where(), other)
			}
			if seen == nil {
				seen = map[string]string{}
			}
			seen[key] = name
			out = append(out, Header{Name: name, Path: append([]string(nil), chain...)})
		}
		var err error
		walkSubschemas(s, func(sub any, kw, key string, idx int) {
			if err != nil {
				return
			}
			n := len(at)
			at = append(at, "/", kw)
			if key != "" {
				at = append(at, "/", key)
			} else if idx >= 0 {
				at = append(at, "/", strconv.Itoa(idx))
			}
			if kw == "properties" && static {
				// Siblings reuse chain's array: each walk ends before the
				// next begins, and a Header copies its path.
				err = walk(sub, true, append(chain, key))
			} else {
				err = walk(sub, false, chain)
			}
			if err == nil {
				at = at[:n]
			}
		})
		return err
	}
	if err := walk(root, true, make([]string, 0, 8)); err != nil {
		return nil, err
	}
	return out, nil
}

// boundHeaderIntegers limits integer header properties to the range a
// double holds exactly, as the transport requires of their values.
func boundHeaderIntegers(root *object, hs []Header) {
	for _, h := range hs {
		s := root
		for _, name := range h.Path {
			props := s.getObject("properties")
			if props == nil {
				s = nil
				break
			}
			s = props.getObject(name)
			if s == nil {
				break
			}
		}
		if s == nil || s.getString("type") != "integer" {
			continue
		}
		setBound(s, "minimum", "-"+maxSafeInteger, true)
		setBound(s, "maximum", maxSafeInteger, false)
	}
}
