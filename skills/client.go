package skills

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// ErrVerification matches (errors.Is) every *VerificationError: a skill
// file whose content does not match what the server's skill entry
// announced.
var ErrVerification = errors.New("skills: skill verification failed")

// Mismatch names what did not match in a *VerificationError.
type Mismatch string

// The mismatches a skill file can have.
const (
	// SizeMismatch: the file's length differs from the entry's size.
	SizeMismatch Mismatch = "size"
	// DigestMismatch: the file's SHA-256 differs from the entry's digest.
	DigestMismatch Mismatch = "digest"
	// FrontmatterMismatch: a field of the SKILL.md frontmatter differs
	// from the entry's frontmatter, or the frontmatter is missing or invalid.
	FrontmatterMismatch Mismatch = "frontmatter"
	// NotListed: the URI is not among the entry's resources, or not
	// within the skill's directory.
	NotListed Mismatch = "listing"
)

// VerificationError reports a skill file the client refused: its content
// does not match the skill entry (from skills/list or skills/get), so it
// must not be used. It matches ErrVerification with errors.Is.
type VerificationError struct {
	// URI is the file that failed.
	URI string
	// Mismatch says what did not match.
	Mismatch Mismatch
	// Field is the frontmatter field that differs (FrontmatterMismatch).
	Field string
	// Want is what the entry announced, Got what the server sent.
	Want, Got string
}

// Error says which file failed and what differed.
func (e *VerificationError) Error() string {
	what := string(e.Mismatch)
	if e.Field != "" {
		what += " field " + e.Field
	}
	return fmt.Sprintf("skills: file %s: %s mismatch: the entry says %s, the file has %s", e.URI, what, e.Want, e.Got)
}

// Is makes errors.Is(err, ErrVerification) hold.
func (e *VerificationError) Is(target error) bool { return target == ErrVerification }

// Entry describes one skill a server offers: its URI, frontmatter and
// files (an alias of the protocol type, so callers need no protocol import).
type Entry = protocol.SkillEntry

// ListResult is one page of skills/list.
type ListResult = protocol.ListSkillsResult

// List returns one page of the skills c's server offers (skills/list):
// entries describing each skill and its files, none of which is fetched.
// Pass the previous page's NextCursor for the next page, "" for the first;
// All walks them all.
func List(ctx context.Context, c *client.Client, cursor string) (*ListResult, error) {
	var res protocol.ListSkillsResult
	if err := c.Call(ctx, protocol.MethodSkillsList, &protocol.ListSkillsParams{Cursor: cursor}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// All iterates over every skill entry of c's server, fetching pages as
// needed. An error ends the iteration after being yielded.
func All(ctx context.Context, c *client.Client) iter.Seq2[*Entry, error] {
	return func(yield func(*Entry, error) bool) {
		cursor := ""
		for range maxPages {
			res, err := List(ctx, c, cursor)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, e := range res.Skills {
				if !yield(e, nil) {
					return
				}
			}
			if res.NextCursor == "" || res.NextCursor == cursor {
				return
			}
			cursor = res.NextCursor
		}
		yield(nil, fmt.Errorf("skills: skills/list: more than %d pages", maxPages))
	}
}

// Get returns the entry of the skill whose SKILL.md URI is uri
// (skills/get). A URI the server does not serve as a skill gives an error
// matching protocol.ErrInvalidParams.
func Get(ctx context.Context, c *client.Client, uri string) (*Entry, error) {
	var res protocol.GetSkillResult
	if err := c.Call(ctx, protocol.MethodSkillsGet, &protocol.GetSkillParams{URI: uri}, &res); err != nil {
		return nil, err
	}
	if res.Skill == nil {
		return nil, fmt.Errorf("skills: skills/get %s: the result has no skill", uri)
	}
	return res.Skill, nil
}

// LoadURI loads the skill whose SKILL.md URI is uri, listed or not: it
// asks the server for the skill's entry (skills/get) and loads the skill
// against it, as Load does.
func LoadURI(ctx context.Context, c *client.Client, uri string) (*Skill, error) {
	entry, err := Get(ctx, c, uri)
	if err != nil {
		return nil, err
	}
	return Load(ctx, c, entry)
}

// ErrNoDirectoryRead is returned by ReadDir when the server did not
// declare the skills extension with directoryRead, so it must not be
// asked.
var ErrNoDirectoryRead = errors.New("skills: the server does not declare io.modelcontextprotocol/skills with directoryRead")

// ReadDir lists the direct children of a directory resource, such as a
// skill's root (skill://pdf-processing) or one of its subdirectories
// (resources/directory/read); a subdirectory is listed with MIME type
// protocol.MIMETypeDirectory. Pages are fetched as needed. It returns
// ErrNoDirectoryRead, without a request, when the server did not declare
// directoryRead.
func ReadDir(ctx context.Context, c *client.Client, uri string) ([]*client.Resource, error) {
	var settings protocol.SkillsCapability
	raw, ok := c.ServerCapabilities().Extensions[protocol.ExtensionSkills]
	if !ok || protocol.Unmarshal(raw, &settings) != nil || !settings.DirectoryRead {
		return nil, ErrNoDirectoryRead
	}
	var out []*protocol.Resource
	cursor := ""
	for range maxPages {
		var res protocol.ListResourcesResult
		if err := c.Call(ctx, protocol.MethodResourcesDirectoryRead, &directoryParams{URI: uri, Cursor: cursor}, &res); err != nil {
			return nil, err
		}
		out = append(out, res.Resources...)
		if res.NextCursor == "" || res.NextCursor == cursor {
			return out, nil
		}
		cursor = res.NextCursor
	}
	return nil, fmt.Errorf("skills: resources/directory/read %s: more than %d pages", uri, maxPages)
}

// maxPages bounds the pages All and ReadDir follow.
const maxPages = 1000

// Skill is a skill whose SKILL.md was fetched and verified (Load).
type Skill struct {
	// Entry is the entry the skill was verified against.
	Entry *Entry
	// Manifest is the SKILL.md, as fetched.
	Manifest []byte
	// Frontmatter is the SKILL.md frontmatter, equal to the entry's.
	Frontmatter map[string]any
}

// Name is the skill's name (frontmatter name).
func (s *Skill) Name() string { n, _ := s.Frontmatter["name"].(string); return n }

// Description is the skill's description (frontmatter description).
func (s *Skill) Description() string {
	d, _ := s.Frontmatter["description"].(string)
	return d
}

// Load fetches the SKILL.md of entry from c's server (resources/read), and
// only it: supporting files are fetched on demand with ReadFile. The file is
// checked against the entry: its size and digest (when the entry lists
// files), then its frontmatter, field by field, and the name against the
// URI. A mismatch is a *VerificationError and the skill must not be
// used.
func Load(ctx context.Context, c *client.Client, entry *Entry) (*Skill, error) {
	data, err := ReadFile(ctx, c, entry, entry.URI)
	if err != nil {
		return nil, err
	}
	fm, err := ParseFrontmatter(data)
	if err == nil {
		err = ValidateFrontmatter(fm)
	}
	if err != nil {
		return nil, &VerificationError{URI: entry.URI, Mismatch: FrontmatterMismatch, Want: "valid frontmatter", Got: err.Error()}
	}
	if err := compareFrontmatter(entry.URI, entry.Frontmatter, fm); err != nil {
		return nil, err
	}
	if last := skillNameOf(entry.URI); last != fm["name"] {
		return nil, &VerificationError{URI: entry.URI, Mismatch: FrontmatterMismatch, Field: "name", Want: fmt.Sprintf("%q (the URI's last skill-path segment)", last), Got: fmt.Sprintf("%q", fm["name"])}
	}
	return &Skill{Entry: entry, Manifest: data, Frontmatter: fm}, nil
}

// ReadFile fetches one file of the skill entry describes (its
// SKILL.md or a file in its directory) and verifies it: when the entry
// lists files, the URI must be listed and the content must have the
// listed size and digest, else a *VerificationError; when the entry's
// resources are dynamic (or omitted), the URI must be within the skill's
// directory and the content is returned unverified (the server published
// no digest).
func ReadFile(ctx context.Context, c *client.Client, entry *Entry, uri string) ([]byte, error) {
	var want *protocol.SkillFile
	if entry.Resources.Dynamic || entry.Resources.Files == nil { // nil: the entry omitted resources
		dir := strings.TrimSuffix(entry.URI, "/"+protocol.SkillManifest)
		if uri != entry.URI && !strings.HasPrefix(uri, dir+"/") {
			return nil, &VerificationError{URI: uri, Mismatch: NotListed, Want: "a file within " + dir, Got: uri}
		}
	} else {
		i := slices.IndexFunc(entry.Resources.Files, func(f protocol.SkillFile) bool { return f.URI == uri })
		if i < 0 {
			return nil, &VerificationError{URI: uri, Mismatch: NotListed, Want: fmt.Sprintf("one of the %d files listed for %s", len(entry.Resources.Files), entry.URI), Got: "an unlisted URI"}
		}
		want = &entry.Resources.Files[i]
	}
	res, err := c.ReadResource(ctx, uri)
	if err != nil {
		return nil, err
	}
	data, err := contentsBytes(res.Contents, uri)
	if err != nil {
		return nil, err
	}
	if want == nil {
		return data, nil
	}
	if int64(len(data)) != want.Size {
		return nil, &VerificationError{URI: uri, Mismatch: SizeMismatch, Want: fmt.Sprintf("%d bytes", want.Size), Got: fmt.Sprintf("%d bytes", len(data))}
	}
	sum := sha256.Sum256(data)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != want.Digest {
		return nil, &VerificationError{URI: uri, Mismatch: DigestMismatch, Want: want.Digest, Got: got}
	}
	return data, nil
}

// contentsBytes returns the raw bytes of the contents for uri: the text's
// UTF-8 or the decoded blob.
func contentsBytes(contents []protocol.ResourceContents, uri string) ([]byte, error) {
	if len(contents) == 0 {
		return nil, fmt.Errorf("skills: file %s: resources/read returned no contents", uri)
	}
	c := contents[0]
	if i := slices.IndexFunc(contents, func(c protocol.ResourceContents) bool { return c.URI == uri }); i >= 0 {
		c = contents[i]
	}
	if c.Blob != nil {
		return c.Blob, nil
	}
	return []byte(c.Text), nil
}

// compareFrontmatter compares the entry's frontmatter with the file's,
// field by field, by their JSON.
func compareFrontmatter(uri string, entry, file map[string]any) error {
	keys := slices.Sorted(maps.Keys(entry))
	for k := range file {
		if _, ok := entry[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		w, _ := protocol.Marshal(entry[k])
		g, _ := protocol.Marshal(file[k])
		if !bytes.Equal(w, g) {
			return &VerificationError{URI: uri, Mismatch: FrontmatterMismatch, Field: k, Want: string(w), Got: string(g)}
		}
	}
	return nil
}

// skillNameOf returns the last skill-path segment of a SKILL.md URI.
func skillNameOf(uri string) string {
	dir := strings.TrimSuffix(uri, "/"+protocol.SkillManifest)
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		return dir[i+1:]
	}
	return dir
}
