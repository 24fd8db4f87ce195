package skills

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// Limits the skills extension sets on one skill (SEP-2640); a registration
// over either fails.
const (
	// MaxFiles is the most files a skill may have, SKILL.md included.
	MaxFiles = 512
	// MaxBytes is the most bytes a skill's files may hold together.
	MaxBytes = 16 << 20
)

// skill is one registered skill: its entry, as listed, and its files,
// held in memory so that what is served always matches the digests.
type skill struct {
	name  string
	path  string // the skill path: skill://<path>/SKILL.md
	entry *protocol.SkillEntry
	enc   json.RawMessage       // entry, encoded once
	files map[string]*skillFile // by URI
	dirs  map[string][]string   // directory URI (no trailing slash) → child URIs, sorted
}

// skillFile is one file of a skill.
type skillFile struct {
	uri  string
	data []byte
	mime string
}

// AddFS registers every skill in fsys on s: each directory holding a
// SKILL.md (the root included) is one skill, served as
// skill://<dir>/SKILL.md with every file below it. A skill nested in
// another is a skill of its own and, for the enclosing skill, supporting
// files (as the extension says). The directory's last element must equal
// the frontmatter name; a SKILL.md at the root is served under its
// frontmatter name. With an embed.FS the skills ship inside the binary:
//
//	//go:embed skills
//	var skillFiles embed.FS
//	...
//	sub, _ := fs.Sub(skillFiles, "skills")
//	if err := skills.AddFS(s, sub); err != nil { ... }
//
// The files are read once, at registration, and served from memory. It
// returns an error when fsys holds no SKILL.md, when a SKILL.md has no valid
// frontmatter (name, description), when a directory name differs from its
// skill's name, when a skill has more than MaxFiles files or MaxBytes
// bytes, when a file is a symbolic link, or when a skill's SKILL.md URI is
// already registered (as a skill or as a resource). Nothing is registered
// when any skill fails.
func AddFS(s *fastmcp.Server, fsys fs.FS) error {
	var dirs []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && path.Base(p) == protocol.SkillManifest {
			dirs = append(dirs, path.Dir(p))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("skills: %w", err)
	}
	if len(dirs) == 0 {
		return errors.New("skills: no SKILL.md found: each skill is a directory with a SKILL.md; for a single skill use skills.Add(s, name, fsys)")
	}
	loaded := make([]*skill, 0, len(dirs))
	for _, dir := range dirs {
		k, err := loadSkill(fsys, dir, "")
		if err != nil {
			return err
		}
		loaded = append(loaded, k)
	}
	return register(s, loaded)
}

// Add registers on s the one skill whose root is fsys (it holds SKILL.md),
// served as skill://<name>/SKILL.md. name must equal the frontmatter name;
// it may carry an organizational prefix, as in "acme/billing/refunds"
// (served as skill://acme/billing/refunds/SKILL.md, named refunds). It
// returns an error when the skill is invalid (see AddFS for what is
// checked); nothing is registered then.
func Add(s *fastmcp.Server, name string, fsys fs.FS) error {
	if last := path.Base(name); !nameRule.MatchString(last) || strings.Contains(last, "--") {
		return fmt.Errorf("skills: %q: the name %q breaks the naming rule: use 1-64 lowercase letters, digits and hyphens, with no hyphen first, last or twice in a row", name, last)
	}
	k, err := loadSkill(fsys, ".", name)
	if err != nil {
		return err
	}
	return register(s, []*skill{k})
}

// Remove unregisters the skill served as skill://<skillPath>/SKILL.md
// (for Add, skillPath is its name) from s and reports whether there was
// one. Connected clients are told the resource list changed.
func Remove(s *fastmcp.Server, skillPath string) bool {
	uri := skillURI(skillPath, protocol.SkillManifest)
	registering.Lock()
	defer registering.Unlock()
	st := stateOf(s)
	if st == nil || st.skills[uri] == nil {
		return false
	}
	delete(st.skills, uri)
	st.publish()
	s.RemoveResource(uri)
	return true
}

// loadSkill reads the skill in directory dir of fsys. skillPath, when not
// empty, is the path it is served under; otherwise dir is (or, for the
// root, the frontmatter name).
func loadSkill(fsys fs.FS, dir, skillPath string) (*skill, error) {
	label := skillPath
	if label == "" {
		label = dir
	}
	manifest, err := fs.ReadFile(fsys, path.Join(dir, protocol.SkillManifest))
	if err != nil {
		return nil, fmt.Errorf("skills: %q: %w: a skill's root directory holds its SKILL.md", label, err)
	}
	fm, err := ParseFrontmatter(manifest)
	if err == nil {
		err = ValidateFrontmatter(fm)
	}
	if err != nil {
		return nil, fmt.Errorf("skills: %q: %w", label, err)
	}
	name := fm["name"].(string)
	skillPath, err = servedPath(dir, skillPath, name)
	if err != nil {
		return nil, fmt.Errorf("skills: %q: %w", label, err)
	}
	k := &skill{name: name, path: skillPath, files: map[string]*skillFile{}, dirs: map[string][]string{}}
	files, err := k.readFiles(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("skills: %q: %w", label, err)
	}
	k.entry = &protocol.SkillEntry{URI: skillURI(skillPath, protocol.SkillManifest), Frontmatter: fm, Resources: protocol.SkillResources{Files: files}}
	if k.enc, err = protocol.Marshal(k.entry); err != nil {
		return nil, fmt.Errorf("skills: %q: encoding its entry: %w", label, err)
	}
	return k, nil
}

// servedPath is the path the skill named name in directory dir is served
// under: skillPath when not empty, else dir (or, for the root, the name).
// Its last element must be the name, and each element usable in a URI.
func servedPath(dir, skillPath, name string) (string, error) {
	switch {
	case skillPath != "":
	case dir == ".":
		skillPath = name
	default:
		skillPath = dir
	}
	if last := path.Base(skillPath); last != name {
		return "", fmt.Errorf("SKILL.md names the skill %q but it is served as %q: the last path element must equal the name; rename the directory or the name", name, last)
	}
	for seg := range strings.SplitSeq(skillPath, "/") {
		if !isUnreserved(seg) {
			return "", fmt.Errorf("the directory name %q is not usable in a skill:// URI: use letters, digits, '-', '.', '_' and '~'", seg)
		}
	}
	return skillPath, nil
}

// readFiles reads the files of the skill in directory dir of fsys into k
// (its files, and its directories' listings, sorted) within the limits of
// the skills extension, and returns their entries for the manifest.
func (k *skill) readFiles(fsys fs.FS, dir string) ([]protocol.SkillFile, error) {
	var total int64
	var files []protocol.SkillFile
	root := skillURI(k.path, "")
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		if dir == "." {
			rel = p
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: copy the file into the skill, links could reach outside it", rel)
		}
		if p == dir {
			return nil
		}
		uri := skillURI(k.path, rel)
		parent := root
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			parent = skillURI(k.path, rel[:i])
		}
		k.dirs[parent] = append(k.dirs[parent], uri)
		if d.IsDir() {
			k.dirs[uri] = nil // listed even when empty
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file (%v)", rel, d.Type())
		}
		if len(files) == MaxFiles {
			return fmt.Errorf("the skill has more than %d files, the limit the skills extension sets: split it", MaxFiles)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		if total += int64(len(data)); total > MaxBytes {
			return fmt.Errorf("the skill's files hold more than %d bytes (16 MiB), the limit the skills extension sets: make it smaller", MaxBytes)
		}
		sum := sha256.Sum256(data)
		files = append(files, protocol.SkillFile{URI: uri, Digest: "sha256:" + hex.EncodeToString(sum[:]), Size: int64(len(data))})
		k.files[uri] = &skillFile{uri: uri, data: data, mime: skillFileMIME(rel, data)}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, c := range k.dirs {
		slices.Sort(c)
	}
	return files, nil
}

// skillURI is the URI of rel (a slash path; "" for the directory itself)
// in the skill at skillPath.
func skillURI(skillPath, rel string) string {
	u := "skill://" + skillPath
	if rel == "" {
		return u
	}
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		segs[i] = url.PathEscape(seg)
	}
	return u + "/" + strings.Join(segs, "/")
}

// isUnreserved reports whether s is a non-empty run of RFC 3986 unreserved
// characters.
func isUnreserved(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0) {
			return false
		}
	}
	return true
}

// skillFileMIME is the MIME type a skill file is served with.
func skillFileMIME(rel string, data []byte) string {
	switch strings.ToLower(path.Ext(rel)) {
	case ".md":
		return "text/markdown"
	case ".txt":
		return "text/plain"
	case ".json":
		return "application/json"
	case ".yaml", ".yml":
		return "application/yaml"
	case ".py":
		return "text/x-python"
	case ".sh":
		return "text/x-shellscript"
	}
	if utf8.Valid(data) {
		return "text/plain"
	}
	return "application/octet-stream"
}
