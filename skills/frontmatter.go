package skills

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// ErrNoFrontmatter is returned for a SKILL.md that does not begin with a
// YAML frontmatter block delimited by "---" lines.
var ErrNoFrontmatter = errors.New("skills: SKILL.md does not begin with a --- delimited YAML frontmatter block")

// nameRule is the Agent Skills naming rule: 1 to 64 characters,
// lowercase letters, digits and hyphens, no hyphen first, last or twice in a
// row.
var nameRule = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`)

// maxDescription is the Agent Skills limit on description.
const maxDescription = 1024

// reservedMetadataPrefix prefixes frontmatter metadata keys reserved for MCP
// extensions; the skills extension defines none.
const reservedMetadataPrefix = "io.modelcontextprotocol/"

// ParseFrontmatter parses the YAML frontmatter at the start of a
// SKILL.md (after an optional byte order mark, between a "---" line and the
// next "---" line) and returns it as a JSON-compatible object: maps with
// string keys, slices, strings, float64 numbers, booleans and nil;
// timestamps stay strings.
// It does not check the fields; see ValidateFrontmatter.
func ParseFrontmatter(doc []byte) (map[string]any, error) {
	block, ok := frontmatterBlock(doc)
	if !ok {
		return nil, ErrNoFrontmatter
	}
	var root yaml.Node
	if err := yaml.Unmarshal(block, &root); err != nil {
		return nil, fmt.Errorf("SKILL.md frontmatter: %w", err)
	}
	if root.Kind == 0 || len(root.Content) == 0 {
		return nil, errors.New("SKILL.md frontmatter is empty: it needs at least name and description")
	}
	budget := maxFrontmatterNodes
	j, err := nodeJSON(root.Content[0], "", &budget)
	if err != nil {
		return nil, fmt.Errorf("SKILL.md frontmatter: %w", err)
	}
	m, ok := j.(map[string]any)
	if !ok {
		return nil, errors.New("SKILL.md frontmatter is not a mapping of fields: write name: ... and description: ... lines")
	}
	return m, nil
}

// frontmatterBlock returns the YAML between the opening and closing "---"
// lines.
func frontmatterBlock(doc []byte) ([]byte, bool) {
	doc = bytes.TrimPrefix(doc, []byte("\ufeff"))
	rest, ok := cutLine(doc, "---")
	if !ok {
		return nil, false
	}
	for off := 0; off <= len(rest); {
		line := rest[off:]
		end := bytes.IndexByte(line, '\n')
		if end >= 0 {
			line = line[:end]
		}
		if string(bytes.TrimRight(bytes.TrimSuffix(line, []byte("\r")), " \t")) == "---" {
			return rest[:off], true
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, false
}

// cutLine reports whether doc starts with the line want (ended by \n or
// \r\n) and returns what follows it.
func cutLine(doc []byte, want string) ([]byte, bool) {
	rest, ok := bytes.CutPrefix(doc, []byte(want))
	if !ok {
		return nil, false
	}
	rest = bytes.TrimPrefix(rest, []byte("\r"))
	return bytes.CutPrefix(rest, []byte("\n"))
}

// maxFrontmatterNodes bounds the values a frontmatter may expand to, so
// that aliases cannot multiply a small block into a huge object.
const maxFrontmatterNodes = 10000

// nodeJSON converts a YAML node into its JSON form: mappings with string
// keys become objects, sequences arrays, scalars strings, numbers,
// booleans or null. Timestamps stay the strings they are written as (as
// YAML 1.2's core schema reads them), so every host sees the same value.
func nodeJSON(n *yaml.Node, path string, budget *int) (any, error) {
	if *budget--; *budget < 0 {
		return nil, fmt.Errorf("more than %d values (aliases included): make it smaller", maxFrontmatterNodes)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return nodeJSON(n.Alias, path, budget)
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
				return nil, fmt.Errorf("%s: key %q is a %s, not a string: quote it", orTop(path), k.Value, k.ShortTag())
			}
			if _, dup := out[k.Value]; dup {
				return nil, fmt.Errorf("%s: key %q appears twice", orTop(path), k.Value)
			}
			v, err := nodeJSON(n.Content[i+1], joinField(path, k.Value), budget)
			if err != nil {
				return nil, err
			}
			out[k.Value] = v
		}
		return out, nil
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, e := range n.Content {
			v, err := nodeJSON(e, fmt.Sprintf("%s[%d]", path, i), budget)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str", "!!timestamp", "!!binary":
			return n.Value, nil
		case "!!null":
			return nil, nil
		case "!!bool":
			var b bool
			err := n.Decode(&b)
			return b, err
		case "!!int", "!!float":
			var f float64
			if err := n.Decode(&f); err != nil {
				return nil, fmt.Errorf("%s: %w", orTop(path), err)
			}
			if math.IsInf(f, 0) || math.IsNaN(f) {
				return nil, fmt.Errorf("%s: %s has no JSON form", orTop(path), n.Value)
			}
			return f, nil
		}
		return nil, fmt.Errorf("%s: a YAML %s has no JSON form", orTop(path), n.ShortTag())
	}
	return nil, fmt.Errorf("%s: unexpected YAML node", orTop(path))
}

func joinField(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func orTop(path string) string {
	if path == "" {
		return "the frontmatter"
	}
	return path
}

// ValidateFrontmatter checks a parsed frontmatter against the Agent
// Skills rules the skills extension relies on: name follows the naming
// rule, description is a non-empty string of at most 1024 characters, and
// metadata (when present) is an object with no io.modelcontextprotocol/
// keys (reserved for MCP extensions).
func ValidateFrontmatter(fm map[string]any) error {
	name, ok := fm["name"].(string)
	switch {
	case !ok || name == "":
		return errors.New(`SKILL.md frontmatter has no "name": add name: <skill-name>`)
	case !nameRule.MatchString(name) || strings.Contains(name, "--"):
		return fmt.Errorf("SKILL.md name %q breaks the naming rule: use 1-64 lowercase letters, digits and hyphens, with no hyphen first, last or twice in a row", name)
	}
	desc, ok := fm["description"].(string)
	switch {
	case !ok || strings.TrimSpace(desc) == "":
		return fmt.Errorf(`SKILL.md of %q has no "description": say what the skill does and when to use it`, name)
	case utf8.RuneCountInString(desc) > maxDescription:
		return fmt.Errorf("SKILL.md of %q: the description has %d characters: keep it to %d", name, utf8.RuneCountInString(desc), maxDescription)
	}
	if md, present := fm["metadata"]; present && md != nil {
		m, ok := md.(map[string]any)
		if !ok {
			return fmt.Errorf("SKILL.md of %q: metadata is a %T: make it a mapping of keys to values", name, md)
		}
		for k := range m {
			if strings.HasPrefix(k, reservedMetadataPrefix) {
				return fmt.Errorf("SKILL.md of %q: metadata key %q uses the prefix %s, reserved for MCP extensions: rename it", name, k, reservedMetadataPrefix)
			}
		}
	}
	return nil
}
