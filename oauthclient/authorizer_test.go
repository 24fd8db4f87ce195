package oauthclient_test

import (
	"errors"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// Config is what client.OAuth takes.
var _ client.HTTPAuthorizer = oauthclient.Config{}

// TestConfigTransport checks that Config builds the Transport New builds,
// refusing the configurations New refuses, and that its errors say they
// are final (fastmcp does not re-issue a request they end).
func TestConfigTransport(t *testing.T) {
	if _, err := (oauthclient.Config{}).Transport("https://mcp.example.com/mcp", nil, nil, nil); err != nil {
		t.Fatalf("Transport: %v", err)
	}
	if _, err := (oauthclient.Config{}).Transport("mcp.example.com", nil, nil, nil); err == nil {
		t.Fatal("Transport accepted a server URL that is not absolute")
	}
	var err error = &oauthclient.Error{Op: "authorize", Err: errors.New("declined")}
	var na interface{ NotAuthorized() bool }
	if !errors.As(err, &na) || !na.NotAuthorized() {
		t.Fatalf("%v does not say it is not authorized", err)
	}
}
