package openapi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// maxNameLen is the MCP tool name limit (SEP-986).
const maxNameLen = 64

// sanitize maps s onto the MCP tool-name alphabet (A-Z a-z 0-9 _ - . /):
// any other character becomes '_', and a name longer than max is cut and
// given a short hash of the whole so that cut names stay distinct.
func sanitize(s string, max int) string {
	var b strings.Builder
	for _, r := range s {
		if validNameRune(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if out == "" {
		out = "_"
	}
	if len(out) > max {
		sum := sha256.Sum256([]byte(s))
		suffix := "_" + hex.EncodeToString(sum[:])[:8]
		out = out[:max-len(suffix)] + suffix
	}
	return out
}

func validNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' || r == '/'
}

// validName reports whether name follows the MCP tool-name rules.
func validName(name string) bool {
	if len(name) == 0 || len(name) > maxNameLen {
		return false
	}
	for _, r := range name {
		if !validNameRune(r) {
			return false
		}
	}
	return true
}

// derivedName is an operation's tool name before prefix and
// de-duplication: its operationId, or method and path ("get_pets_petId").
func derivedName(o Operation) string {
	if o.ID != "" {
		return o.ID
	}
	var b strings.Builder
	b.WriteString(strings.ToLower(o.Method))
	for _, seg := range strings.Split(o.Path, "/") {
		seg = strings.Trim(seg, "{}")
		if seg == "" {
			continue
		}
		b.WriteByte('_')
		b.WriteString(seg)
	}
	return b.String()
}

// namer hands out unique names in document order.
type namer struct {
	prefix string
	used   map[string]bool
}

// next returns the name for o: the prefix plus its sanitized derived name,
// with "_2", "_3", ... when it is taken.
func (n *namer) next(o Operation) string {
	base := sanitize(n.prefix+derivedName(o), maxNameLen)
	name := base
	for i := 2; n.used[name]; i++ {
		suffix := fmt.Sprintf("_%d", i)
		name = base
		if len(name)+len(suffix) > maxNameLen {
			name = name[:maxNameLen-len(suffix)]
		}
		name += suffix
	}
	n.used[name] = true
	return name
}
