package schema

import "testing"

// TestJSONNameFor checks the json name registration suggests for an
// untagged field (Type.Warnings).
func TestJSONNameFor(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Query": "query", "UserID": "userID", "ID": "id", "URL": "url",
		"HTTPServer": "httpServer", "X": "x", "MaxItems2": "maxItems2",
	} {
		if got := jsonNameFor(in); got != want {
			t.Errorf("jsonNameFor(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNearestTagKey checks which misspellings get a suggestion: up to two
// edits, case ignored, and none for a word so short that any key is near.
func TestNearestTagKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"minimun": "minimum", "maxlength": "maxLength", "enums": "enum", "requried": "required",
		"nulable": "nullable", "descripton": "description", "foo": "", "x": "", "ab": "", "colour": "",
	} {
		if got := nearestTagKey(in); got != want {
			t.Errorf("nearestTagKey(%q) = %q, want %q", in, got, want)
		}
	}
}
