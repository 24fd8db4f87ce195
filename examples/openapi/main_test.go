package main

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/transport"
)

// TestMain lets the test binary play the server: started again with the
// argument "serve", it runs main over stdio with its demo API.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "serve" {
		os.Args = append(os.Args[:1], os.Args[2:]...)
		main()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// TestPetstore runs the program as a host would start it: the catalogue is
// the route map's and the transformations' (no admin operation, the
// originals of the derived tools disabled), the derived tools reach the
// demo API with the hidden id chosen by the server, and the resource
// template reads a pet.
func TestPetstore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.ConnectCommand(ctx, &transport.Command{
		Path: self, Args: []string{"serve"}, Stderr: os.Stderr,
		Env: []string{"GORACE=atexit_sleep_ms=0", "FASTMCP_LOG_LEVEL=warn"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	tools, err := c.ListTools(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if !slices.Equal(names, []string{"add_pet", "list_pets"}) {
		t.Fatalf("tools = %v, want add_pet and list_pets only", names)
	}
	if s := string(tools.Tools[0].InputSchema); strings.Contains(s, `"id"`) {
		t.Errorf("add_pet publishes the id the server chooses: %s", s)
	}

	res, err := c.CallTool(ctx, "add_pet", map[string]any{"name": "Nemo", "tag": "fish"})
	if err != nil || res.IsError {
		t.Fatalf("add_pet: %v %+v", err, res)
	}
	res, err = c.CallTool(ctx, "add_pet", map[string]any{"name": "Nemo", "id": 7})
	if err != nil || !res.IsError || !strings.Contains(res.Text(), "id: is not an argument") {
		t.Fatalf("add_pet with an id: %v %+v", err, res)
	}
	res, err = c.CallTool(ctx, "list_pets", nil)
	if err != nil || res.IsError {
		t.Fatalf("list_pets: %v %+v", err, res)
	}
	var listed struct {
		Result []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"result"`
	}
	if err := json.Unmarshal(res.StructuredContent, &listed); err != nil || len(listed.Result) != 3 || listed.Result[2].Name != "Nemo" || listed.Result[2].ID < 1000 {
		t.Fatalf("list_pets = %s (%v)", res.StructuredContent, err)
	}

	tmpls, err := c.ListResourceTemplates(ctx, "")
	if err != nil || len(tmpls.ResourceTemplates) != 1 {
		t.Fatalf("templates = %+v, %v", tmpls, err)
	}
	uri := strings.Replace(tmpls.ResourceTemplates[0].URITemplate, "{petId}", "2", 1)
	read, err := c.ReadResource(ctx, uri)
	if err != nil || len(read.Contents) != 1 || !strings.Contains(read.Contents[0].Text, `"Rex"`) {
		t.Fatalf("read %s: %+v %v", uri, read, err)
	}
	if _, err := c.CallTool(ctx, "deletePet", map[string]any{"petId": "1"}); err == nil {
		t.Error("the admin operation deletePet is served")
	}
}
