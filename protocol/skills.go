package protocol

import (
	"bytes"
	"fmt"
)

// The skills extension (SEP-2640): a server serves skills — directories
// holding a SKILL.md manifest and supporting files — as resources, lists
// them with skills/list and describes one with skills/get. A server
// declares it under ServerCapabilities.Extensions[ExtensionSkills], with a
// [SkillsCapability] as settings, and must declare resources too.
const (
	// ExtensionSkills is the skills extension's identifier.
	ExtensionSkills = "io.modelcontextprotocol/skills"
	// MethodSkillsList lists the skills a server serves.
	MethodSkillsList = "skills/list"
	// MethodSkillsGet returns the entry of one skill, by its SKILL.md URI.
	MethodSkillsGet = "skills/get"
	// MethodResourcesDirectoryRead lists the direct children of a
	// directory resource (skills extension, with directoryRead).
	MethodResourcesDirectoryRead = "resources/directory/read"
	// MIMETypeDirectory is the MIME type of a directory resource.
	MIMETypeDirectory = "inode/directory"
	// SkillManifest is the file name of a skill's manifest.
	SkillManifest = "SKILL.md"
	// SkillsDynamic is the value of an entry's resources when the server
	// publishes no file manifest for the skill.
	SkillsDynamic = "dynamic"
)

// SkillsCapability is the settings object of the skills extension.
type SkillsCapability struct {
	// DirectoryRead says the server answers resources/directory/read on
	// skill directories.
	DirectoryRead bool `json:"directoryRead,omitzero"`
}

// SkillEntry describes one skill: its SKILL.md URI, that file's
// frontmatter as a JSON object and the skill's files.
type SkillEntry struct {
	// URI is the resource URI of the skill's SKILL.md,
	// skill://<skill-path>/SKILL.md; the final skill-path segment is the
	// skill's name.
	URI string `json:"uri"`
	// Frontmatter is the SKILL.md YAML frontmatter rendered as JSON; it
	// has at least name and description.
	Frontmatter map[string]any `json:"frontmatter"`
	// Resources lists every file of the skill, SKILL.md included, or says
	// the list is dynamic.
	Resources SkillResources `json:"resources"`
}

// SkillResources is the resources member of a skill entry: the complete
// file list, or "dynamic" (Dynamic set, Files nil).
type SkillResources struct {
	// Files lists each file of the skill once, SKILL.md included.
	Files []SkillFile
	// Dynamic: the server publishes no file list for the skill.
	Dynamic bool
}

// MarshalJSON encodes the list, or "dynamic".
func (r SkillResources) MarshalJSON() ([]byte, error) {
	if r.Dynamic {
		return []byte(`"` + SkillsDynamic + `"`), nil
	}
	files := r.Files
	if files == nil {
		files = []SkillFile{}
	}
	return jsonMarshal(files)
}

// UnmarshalJSON decodes a list of files or "dynamic"; anything else is an
// error.
func (r *SkillResources) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := jsonUnmarshal(b, &s); err != nil {
			return err
		}
		if s != SkillsDynamic {
			return fmt.Errorf("skill resources: %q is neither a list of files nor %q", s, SkillsDynamic)
		}
		*r = SkillResources{Dynamic: true}
		return nil
	}
	if bytes.Equal(b, []byte("null")) {
		return fmt.Errorf("skill resources: null is neither a list of files nor %q", SkillsDynamic)
	}
	var files []SkillFile
	if err := jsonUnmarshal(b, &files); err != nil {
		return fmt.Errorf("skill resources: %w", err)
	}
	*r = SkillResources{Files: files}
	return nil
}

// SkillFile is one file of a skill: its resource URI, the SHA-256 digest
// of its raw bytes ("sha256:" and 64 lowercase hex digits) and its size in
// bytes.
type SkillFile struct {
	URI    string `json:"uri"`
	Digest string `json:"digest"`
	Size   int64  `json:"size"`
}

// ListSkillsParams are the params of skills/list.
type ListSkillsParams struct {
	// Cursor continues a previous listing.
	Cursor string `json:"cursor,omitzero"`
}

// ListSkillsResult is the result of skills/list.
type ListSkillsResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// Skills is one page of skills; always encoded.
	Skills []*SkillEntry `json:"skills"`
	// NextCursor, when not empty, fetches the next page.
	NextCursor string `json:"nextCursor,omitzero"`
}

// GetSkillParams are the params of skills/get.
type GetSkillParams struct {
	// URI is the skill's SKILL.md URI.
	URI string `json:"uri"`
}

// GetSkillResult is the result of skills/get.
type GetSkillResult struct {
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
	// ResultType is "complete" (2026-07-28).
	ResultType string `json:"resultType,omitzero"`
	// TTLMs is how long, in milliseconds, the client may cache the result
	// (2026-07-28).
	TTLMs *int64 `json:"ttlMs,omitzero"`
	// CacheScope says who may cache the result (2026-07-28).
	CacheScope CacheScope `json:"cacheScope,omitzero"`
	// Skill is the skill's entry.
	Skill *SkillEntry `json:"skill"`
}
