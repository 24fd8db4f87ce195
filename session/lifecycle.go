package session

import (
	"context"
	"fmt"

	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/transport"
)

// ProtocolVersion returns the revision negotiated by the initialize
// handshake, or "" before it.
func (s *Session) ProtocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// Initialized reports whether the initialize handshake has completed.
func (s *Session) Initialized() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state != stateNew
}

// ClientCapabilities returns the capabilities the client declared in
// initialize (empty before it). The caller must not modify them.
func (s *Session) ClientCapabilities() *protocol.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clientCap == nil {
		return &protocol.ClientCapabilities{}
	}
	return s.clientCap
}

// ClientInfo returns the client's self-description from initialize.
func (s *Session) ClientInfo() *protocol.Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.client == nil {
		return &protocol.Implementation{}
	}
	return s.client
}

// ServerCapabilities returns the capabilities the server declared in its
// initialize result (client sessions; empty before it).
func (s *Session) ServerCapabilities() *protocol.ServerCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serverCap == nil {
		return &protocol.ServerCapabilities{}
	}
	return s.serverCap
}

// ServerInfo returns the server's self-description from its initialize
// result (client sessions).
func (s *Session) ServerInfo() *protocol.Implementation {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.server == nil {
		return &protocol.Implementation{}
	}
	return s.server
}

// SetLogLevel records the level set by logging/setLevel.
func (s *Session) SetLogLevel(l protocol.LoggingLevel) {
	s.mu.Lock()
	s.logLevel = l
	s.mu.Unlock()
}

// LogLevel returns the level set by logging/setLevel, or "" if none was.
func (s *Session) LogLevel() protocol.LoggingLevel {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logLevel
}

// Initialize performs the legacy handshake from the client side: it sends
// initialize, checks that the server chose a revision this package speaks
// (else the error matches ErrUnsupportedVersion), records the server's
// capabilities and identity, and sends notifications/initialized.
func (s *Session) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	var res protocol.InitializeResult
	if err := s.Call(ctx, protocol.MethodInitialize, params, &res); err != nil {
		return nil, err
	}
	if err := s.Handshake(ctx, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Handshake completes the legacy handshake of a client session with res,
// the server's answer to an initialize request the caller sent itself (as
// a client whose requests go through middleware does): it checks the
// revision, records the server's capabilities and identity, and sends
// notifications/initialized. Initialize is Call followed by Handshake.
func (s *Session) Handshake(ctx context.Context, res *protocol.InitializeResult) error {
	if !protocol.IsLegacy(res.ProtocolVersion) {
		return fmt.Errorf("%w: %q", ErrUnsupportedVersion, res.ProtocolVersion)
	}
	s.mu.Lock()
	s.version = res.ProtocolVersion
	caps := res.Capabilities
	s.serverCap = &caps
	info := res.ServerInfo
	s.server = &info
	s.state = stateReady
	s.mu.Unlock()
	s.settled(res.ProtocolVersion)
	return s.Notify(ctx, protocol.NotificationInitialized, nil)
}

// settled tells a transport whose framing depends on the revision (a
// transport.VersionedConn) the revision the handshake settled on.
func (s *Session) settled(v string) {
	if vc, ok := s.conn.(transport.VersionedConn); ok {
		vc.SetProtocolVersion(v)
	}
}
