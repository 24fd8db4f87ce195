package client_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/fastmcp/fastmcptest"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// TestReadResourceNotFoundEveryEra: one errors.Is check finds an unknown
// URI on every revision, in memory and over HTTP. Before, it held on
// legacy revisions only: 2026-07-28 answers -32602, not -32002.
func TestReadResourceNotFoundEveryEra(t *testing.T) {
	transports := []struct {
		name    string
		connect func(t *testing.T, s *fastmcp.Server, era client.Option) *client.Client
	}{
		{"memory", func(t *testing.T, s *fastmcp.Server, era client.Option) *client.Client { return connect(t, s, era) }},
		{"http", func(t *testing.T, s *fastmcp.Server, era client.Option) *client.Client {
			return fastmcptest.NewHTTPClient(t, s, era, client.WithLogger(quietLogger))
		}},
	}
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			bothEras(t, func(t *testing.T, era client.Option, modern bool) {
				s := newServer()
				s.Resource("config://app", func() string { return "{}" })
				s.Resource("users://{id}", func(in struct {
					ID string `json:"id"`
				}) (string, error) {
					return "", errors.New("users are not loaded")
				})
				c := tr.connect(t, s, era)
				if _, err := c.ReadResource(ctxT(t), "config://app"); err != nil {
					t.Fatalf("known resource: %v", err)
				}
				const unknown = "config://nope"
				_, err := c.ReadResource(ctxT(t), unknown)
				if !errors.Is(err, client.ErrResourceNotFound) {
					t.Errorf("errors.Is(%v, client.ErrResourceNotFound) = false", err)
				}
				if !errors.Is(err, protocol.ErrResourceNotFound) {
					t.Errorf("errors.Is(%v, protocol.ErrResourceNotFound) = false", err)
				}
				// The server's answer is still there, as sent.
				perr, ok := errors.AsType[*protocol.Error](err)
				if !ok {
					t.Fatalf("%v (%T) is not a *protocol.Error", err, err)
				}
				wantCode := int64(protocol.CodeResourceNotFound)
				if modern {
					wantCode = protocol.CodeInvalidParams
				}
				var data struct {
					URI string `json:"uri"`
				}
				if perr.Code != wantCode || json.Unmarshal(perr.Data, &data) != nil || data.URI != unknown {
					t.Errorf("answer = code %d data %s, want code %d with the uri", perr.Code, perr.Data, wantCode)
				}
				if modern && !errors.Is(err, protocol.ErrInvalidParams) {
					t.Errorf("a 2026-07-28 not-found no longer matches ErrInvalidParams: %v", err)
				}
				// A read that fails otherwise is not "not found".
				if _, err := c.ReadResource(ctxT(t), "users://7"); err == nil || errors.Is(err, client.ErrResourceNotFound) {
					t.Errorf("a failing read = %v, want an error that is not ErrResourceNotFound", err)
				}
			})
		})
	}
}
