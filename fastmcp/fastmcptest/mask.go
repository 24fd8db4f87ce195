package fastmcptest

import (
	"bytes"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// mask returns line, a JSON value, with the value of every object member
// named in names replaced by the string "<name>". The rest of the line is
// kept byte for byte. A line that is not valid JSON is returned as is.
func mask(line string, names []string) string {
	if len(names) == 0 || !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(line, `"`+n+`"`) }) {
		return line
	}
	type span struct {
		start, end int64
		name       string
	}
	var spans []span
	dec := jsontext.NewDecoder(strings.NewReader(line))
	for {
		kind, n := dec.StackIndex(dec.StackDepth())
		if kind == '{' && n%2 == 0 && dec.PeekKind() == '"' {
			// The next token is a member name.
			tok, err := dec.ReadToken()
			if err != nil {
				return line
			}
			if name := tok.String(); slices.Contains(names, name) {
				v, err := dec.ReadValue()
				if err != nil {
					return line
				}
				end := dec.InputOffset()
				spans = append(spans, span{end - int64(len(v)), end, name})
			}
			continue
		}
		if _, err := dec.ReadToken(); err != nil {
			break
		}
	}
	var b bytes.Buffer
	last := int64(0)
	for _, s := range spans {
		b.WriteString(line[last:s.start])
		b.WriteString(`"<` + s.name + `>"`)
		last = s.end
	}
	b.WriteString(line[last:])
	return b.String()
}
