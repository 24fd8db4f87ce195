// Package headername checks the name an x-mcp-header annotation gives a
// tool parameter's HTTP header (SEP-2243), the same way for the schema a
// server publishes and the schemas a client reads. Standard library only,
// so that package schema can use it.
package headername

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Check checks that name has RFC 9110 token syntax (1*tchar). Its error
// completes a sentence naming the header ("x-mcp-header %q <err>").
func Check(name string) error {
	if name == "" {
		return errors.New("is empty: give the header a name")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(name[i:]) // the character, not its first byte
		return fmt.Errorf("contains %q, which is not allowed in an HTTP header name: use letters, digits and !#$%%&'*+-.^_`|~", r)
	}
	return nil
}
