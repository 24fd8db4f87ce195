package floortools

import "encoding/json"

// ListResult encodes the tools/list result of Tools, as the floor does
// once at startup (encoding/json checks and compacts each raw schema as it
// copies it).
func ListResult() ([]byte, error) {
	type listed struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	list := struct {
		Tools []listed `json:"tools"`
	}{Tools: make([]listed, 0, len(Tools))}
	for i := range Tools {
		d := &Tools[i]
		list.Tools = append(list.Tools, listed{d.Name, d.Description, json.RawMessage(d.Schema)})
	}
	return json.Marshal(&list)
}
