package oauthclient_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	"github.com/fastmcp-go/fastmcp/oauthclient"
)

// The Transport plugs into any http.Client; client.OAuth does this for
// client.ConnectHTTP.
func ExampleNew() {
	tr, err := oauthclient.New("https://mcp.example.com/mcp", oauthclient.Config{
		ClientName: "my-agent",
		Store:      oauthclient.NewFileStore("~/.config/my-agent/tokens.json"),
		OpenURL: func(_ context.Context, authURL string) error {
			fmt.Println("Log in at", authURL)
			return nil
		},
	}, nil)
	if err != nil {
		log.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	_ = client // every request it sends to mcp.example.com carries the token
}

// A grant without the user: the client credentials grant, authenticated
// with a pre-registered secret.
func ExampleClientCredentials() {
	_, err := oauthclient.New("https://mcp.example.com/mcp", oauthclient.Config{
		Client: &oauthclient.Registration{ClientID: "reporting-job", ClientSecret: "…"},
		Grant:  oauthclient.ClientCredentials{},
	}, nil)
	fmt.Println(err)
	// Output: <nil>
}

func ExampleParseChallenges() {
	h := http.Header{"Www-Authenticate": {`Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`}}
	for _, c := range oauthclient.ParseChallenges(h) {
		fmt.Println(c.Scheme, c.Error(), c.Scopes(), c.ResourceMetadata())
	}
	// Output: Bearer insufficient_scope [files:read files:write] https://mcp.example.com/.well-known/oauth-protected-resource/mcp
}
