package client_test

import (
	"encoding/json"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
)

func TestElicitationAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content any
		want    string // the content's JSON; "" for none
		wantErr bool
	}{
		{"map", map[string]any{"confirm": true}, `{"confirm":true}`, false},
		{"struct", struct {
			Name string `json:"name"`
			Age  int    `json:"age,omitempty"`
		}{Name: "Ada"}, `{"name":"Ada"}`, false},
		{"raw JSON", json.RawMessage(`{"n":1}`), `{"n":1}`, false},
		{"nil: no content", nil, "", false},
		{"not an object", "yes", "", true},
		{"an array", []int{1}, "", true},
		{"not encodable", map[string]any{"f": func() {}}, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := client.AcceptElicitation(tc.content)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("AcceptElicitation(%v) = %s, want an error", tc.content, res.Content)
				}
				return
			}
			if err != nil {
				t.Fatalf("AcceptElicitation: %v", err)
			}
			if res.Action != protocol.ElicitActionAccept || string(res.Content) != tc.want {
				t.Errorf("got action %q content %s, want accept %s", res.Action, res.Content, tc.want)
			}
		})
	}
	if a := client.DeclineElicitation().Action; a != protocol.ElicitActionDecline {
		t.Errorf("DeclineElicitation: %q", a)
	}
	if a := client.CancelElicitation().Action; a != protocol.ElicitActionCancel {
		t.Errorf("CancelElicitation: %q", a)
	}
}
