package floortools

import (
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// ListResult encodes the tools/list result of Tools, as the floor does
// once at startup (go-json-experiment checks each raw schema as it copies
// it).
func ListResult() ([]byte, error) {
	type listed struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		InputSchema jsontext.Value `json:"inputSchema"`
	}
	list := struct {
		Tools []listed `json:"tools"`
	}{Tools: make([]listed, 0, len(Tools))}
	for i := range Tools {
		d := &Tools[i]
		list.Tools = append(list.Tools, listed{d.Name, d.Description, jsontext.Value(d.Schema)})
	}
	return json.Marshal(&list)
}
