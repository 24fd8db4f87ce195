package fastmcp

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// ErrNoFrontmatter is returned for a SKILL.md that does not begin with a
// YAML frontmatter block delimited by "---" lines.
var ErrNoFrontmatter = errors.New("SKILL.md does not begin with a --- delimited YAML frontmatter block")

// skillNameRule is the Agent Skills naming rule: 1 to 64 characters,
// lowercase letters, digits and hyphens, no hyphen first, last or twice in a
// row.
var skillNameRule = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$`)

// maxSkillDescription is the Agent Skills limit on description.
const maxSkillDescription = 1024

// reservedMetadataPrefix prefixes frontmatter metadata keys reserved for MCP
// extensions; the skills extension defines none.
const reservedMetadataPrefix = "io.modelcontextprotocol/"

// ParseSkillFrontmatter parses the YAML frontmatter at the start of a
// SKILL.md (after an optional byte order mark, between a "---" line and the
// next "---" line) and returns it as a JSON-compatible object: maps with
// string keys, slices, strings, float64 or int64 numbers, booleans and nil.
// It does not check the fields; see ValidateSkillFrontmatter.
func ParseSkillFrontmatter(doc []byte) (map[string]any, error) {
	block, ok := frontmatterBlock(doc)
	if !ok {
		return nil, ErrNoFrontmatter
	}
	var v any
	if err := yaml.Unmarshal(block, &v); err != nil {
		return nil, fmt.Errorf("SKILL.md frontmatter: %w", err)
	}
	if v == nil {
		return nil, errors.New("SKILL.md frontmatter is empty: it needs at least name and description")
	}
	j, err := jsonCompatible(v, "")
	if err != nil {
		return nil, fmt.Errorf("SKILL.md frontmatter: %w", err)
	}
	m, ok := j.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("SKILL.md frontmatter is a YAML %T, not a mapping of fields", j)
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

// jsonCompatible converts a decoded YAML value into its JSON form.
func jsonCompatible(v any, path string) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			c, err := jsonCompatible(e, joinField(path, k))
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("%s: key %v is a %T: JSON object keys are strings, quote it", orTop(path), k, k)
			}
			c, err := jsonCompatible(e, joinField(path, ks))
			if err != nil {
				return nil, err
			}
			out[ks] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := jsonCompatible(e, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case nil, string, bool:
		return x, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, fmt.Errorf("%s: %v has no JSON form", orTop(path), x)
		}
		return x, nil
	case time.Time:
		return x.Format(time.RFC3339Nano), nil
	default:
		return nil, fmt.Errorf("%s: a YAML %T has no JSON form", orTop(path), v)
	}
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

// ValidateSkillFrontmatter checks a parsed frontmatter against the Agent
// Skills rules the skills extension relies on: name follows the naming
// rule, description is a non-empty string of at most 1024 characters, and
// metadata (when present) is an object with no io.modelcontextprotocol/
// keys (reserved for MCP extensions).
func ValidateSkillFrontmatter(fm map[string]any) error {
	name, ok := fm["name"].(string)
	switch {
	case !ok || name == "":
		return errors.New(`SKILL.md frontmatter has no "name": add name: <skill-name>`)
	case !skillNameRule.MatchString(name) || strings.Contains(name, "--"):
		return fmt.Errorf("SKILL.md name %q breaks the naming rule: use 1-64 lowercase letters, digits and hyphens, with no hyphen first, last or twice in a row", name)
	}
	desc, ok := fm["description"].(string)
	switch {
	case !ok || strings.TrimSpace(desc) == "":
		return fmt.Errorf(`SKILL.md of %q has no "description": say what the skill does and when to use it`, name)
	case utf8.RuneCountInString(desc) > maxSkillDescription:
		return fmt.Errorf("SKILL.md of %q: the description has %d characters: keep it to %d", name, utf8.RuneCountInString(desc), maxSkillDescription)
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
