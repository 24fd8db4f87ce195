package fastmcptest

import (
	"bytes"
	"strings"
)

// The txtar format (as golang.org/x/tools/txtar defines it, read and
// written here so that the SDK's module does not require x/tools): a
// comment, then files, each introduced by a marker line "-- NAME --" and
// holding the lines up to the next marker.

// archive is a txtar archive.
type archive struct {
	Comment []byte
	Files   []archiveFile
}

// archiveFile is one file of an archive.
type archiveFile struct {
	Name string
	Data []byte
}

// markerName returns the name of the marker line line ("-- NAME --",
// without its newline), or false if it is no marker.
func markerName(line string) (string, bool) {
	rest, ok := strings.CutPrefix(line, "-- ")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, " --")
	if !ok {
		return "", false
	}
	name := strings.TrimSpace(rest)
	return name, name != ""
}

// parseArchive parses data as a txtar archive; any data is one.
func parseArchive(data []byte) *archive {
	a := &archive{}
	cur := &a.Comment
	for line := range bytes.Lines(data) {
		if name, ok := markerName(strings.TrimRight(string(line), "\r\n")); ok {
			a.Files = append(a.Files, archiveFile{Name: name})
			cur = &a.Files[len(a.Files)-1].Data
			continue
		}
		*cur = append(*cur, line...)
	}
	return a
}

// format returns the archive as txtar, each part ending in a newline.
func (a *archive) format() []byte {
	var b bytes.Buffer
	withNewline := func(p []byte) {
		b.Write(p)
		if len(p) > 0 && p[len(p)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	withNewline(a.Comment)
	for _, f := range a.Files {
		b.WriteString("-- " + f.Name + " --\n")
		withNewline(f.Data)
	}
	return b.Bytes()
}
