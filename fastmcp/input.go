package fastmcp

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/internal/clientlink"
	"github.com/fastmcp-go/fastmcp/internal/sealedstate"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/schema"
)

// Sentinel errors for a client that did not declare what a handler asked
// of it; errors.Is matches them against the *CapabilityError the Context
// methods return. ErrUnsupportedByClient matches any of them.
var (
	ErrUnsupportedByClient    = errors.New("fastmcp: the client does not support this")
	ErrSamplingUnsupported    = errors.New("fastmcp: the client does not support sampling")
	ErrElicitationUnsupported = errors.New("fastmcp: the client does not support elicitation")
	ErrRootsUnsupported       = errors.New("fastmcp: the client does not support roots")
)

// ErrInputRequired is returned by Sample, Elicit, ElicitURL and ListRoots
// during a modern (2026-07-28) request when the client has not answered yet:
// the handler should return (any error will do, typically this one). fastmcp
// then answers the request with an input_required result, and the client
// calls again with the answers; the handler runs again from the start and
// this time the same call returns the client's answer.
//
// A handler must therefore be safe to re-run up to its input requests: do
// work with side effects after them, or make it idempotent.
var ErrInputRequired = clientlink.ErrInputRequired

// ErrInvalidRequestState is wrapped by the error a modern request gets when
// its requestState was tampered with, has expired, or belongs to another
// request or client.
var ErrInvalidRequestState = sealedstate.ErrInvalid

// CapabilityError reports that the client did not declare the capability a
// Context method needed. On a modern (2026-07-28) request, a handler that
// returns it makes the request fail with MissingRequiredClientCapability
// (-32021); on legacy revisions a tool gets an isError result.
type CapabilityError struct {
	// Capability names what was missing: "sampling", "sampling.tools",
	// "elicitation", "elicitation.url" or "roots".
	Capability string
}

func (e *CapabilityError) Error() string {
	return fmt.Sprintf("fastmcp: the client did not declare the %s capability", e.Capability)
}

// Is matches ErrUnsupportedByClient and the sentinel of the capability.
func (e *CapabilityError) Is(target error) bool {
	if target == ErrUnsupportedByClient {
		return true
	}
	switch strings.SplitN(e.Capability, ".", 2)[0] {
	case "sampling":
		return target == ErrSamplingUnsupported
	case "elicitation":
		return target == ErrElicitationUnsupported
	case "roots":
		return target == ErrRootsUnsupported
	}
	return false
}

// required returns the client capabilities object naming what is missing.
func (e *CapabilityError) required() protocol.ClientCapabilities {
	var caps protocol.ClientCapabilities
	switch e.Capability {
	case "sampling":
		caps.Sampling = &protocol.SamplingCapability{}
	case "sampling.tools":
		caps.Sampling = &protocol.SamplingCapability{Tools: &protocol.Capability{}}
	case "elicitation", "elicitation.form":
		caps.Elicitation = &protocol.ElicitationCapability{}
	case "elicitation.url":
		caps.Elicitation = &protocol.ElicitationCapability{URL: &protocol.Capability{}}
	case "roots":
		caps.Roots = &protocol.RootsCapability{}
	default:
		caps.Experimental = map[string]json.RawMessage{e.Capability: json.RawMessage("{}")}
	}
	return caps
}

// protocolError is the -32021 error carrying the required capabilities.
func (e *CapabilityError) protocolError() *protocol.Error {
	return protocol.NewError(protocol.CodeMissingRequiredClientCapability, e.Error()).
		WithData(protocol.MissingRequiredClientCapabilityData{RequiredCapabilities: e.required()})
}

// Sampling types.
type (
	// SamplingRequest asks the client's model for a message (sampling/createMessage).
	SamplingRequest = protocol.CreateMessageParams
	// SamplingResult is the client's answer to a SamplingRequest.
	SamplingResult = protocol.CreateMessageResult
	// SamplingMessage is one message of a SamplingRequest.
	SamplingMessage = protocol.SamplingMessage
	// SamplingContent is the content of a SamplingMessage or
	// SamplingResult: one block, or several.
	SamplingContent = protocol.SamplingContent
	// Root is a root the client exposes (a directory or other base URI).
	Root = protocol.Root
)

// An InputOption configures one request for input from the client
// (Sample, Elicit, ElicitURL, ListRoots).
type InputOption func(*inputConfig)

type inputConfig struct {
	key string
}

// InputKey names the input request on protocol 2026-07-28, where the
// server's questions travel as a map in an input_required result: key is
// the map key the client answers under. Default: the kind and position of
// the request in the handler ("elicit-1", "sample-2", ...), which is stable
// across re-runs. Keys must be unique within a request.
func InputKey(key string) InputOption {
	return func(c *inputConfig) { c.key = key }
}

func inputKey(opts []InputOption) string {
	var cfg inputConfig
	for _, o := range opts {
		o(&cfg)
	}
	return cfg.key
}

// Sample asks the client to sample its language model
// (sampling/createMessage). It needs the client's sampling capability (and
// sampling.tools when req.Tools is set); without it the error matches
// ErrSamplingUnsupported.
func (c *Context) Sample(req *SamplingRequest, opts ...InputOption) (*SamplingResult, error) {
	caps := c.ClientCapabilities()
	if caps.Sampling == nil {
		return nil, &CapabilityError{Capability: "sampling"}
	}
	if (len(req.Tools) > 0 || req.ToolChoice != nil) && caps.Sampling.Tools == nil {
		return nil, &CapabilityError{Capability: "sampling.tools"}
	}
	var res SamplingResult
	if err := c.ask("sample", inputKey(opts), protocol.MethodSamplingCreateMessage, req, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ElicitAction is the user's answer to an elicitation.
type ElicitAction string

// The actions a user can take on an elicitation.
const (
	ElicitAccept  ElicitAction = protocol.ElicitActionAccept
	ElicitDecline ElicitAction = protocol.ElicitActionDecline
	ElicitCancel  ElicitAction = protocol.ElicitActionCancel
)

// Elicit asks the user, through the client, to fill in a form (elicitation
// in form mode). v must be a pointer to a struct: its type gives the form's
// schema (a flat object of strings, numbers, booleans and enums; see the
// schema package's Elicitation for the tags), and on ElicitAccept the user's
// answers are validated and decoded into it. It needs the client's
// elicitation capability; without it the error matches
// ErrElicitationUnsupported.
func (c *Context) Elicit(message string, v any, opts ...InputOption) (ElicitAction, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return "", fmt.Errorf("fastmcp: Elicit needs a non-nil pointer to a struct, got %T", v)
	}
	st, err := c.srv.elicitationSchema(rv.Elem().Type())
	if err != nil {
		return "", err
	}
	caps := c.ClientCapabilities()
	if caps.Elicitation == nil || (caps.Elicitation.Form == nil && caps.Elicitation.URL != nil) {
		return "", &CapabilityError{Capability: "elicitation"}
	}
	params := &protocol.ElicitParams{Message: message, RequestedSchema: st.Schema()}
	if protocol.HasURLElicitation(c.req.Version) {
		params.Mode = protocol.ElicitModeForm
	}
	var res protocol.ElicitResult
	if err := c.ask("elicit", inputKey(opts), protocol.MethodElicitationCreate, params, &res); err != nil {
		return "", err
	}
	action := ElicitAction(res.Action)
	switch action {
	case ElicitAccept:
		content := res.Content
		if len(content) == 0 {
			content = json.RawMessage("{}")
		}
		got, err := st.Bind(content)
		if err != nil {
			return action, fmt.Errorf("fastmcp: the client's elicitation answer does not fit the form: %w", err)
		}
		if got.Kind() == reflect.Pointer {
			got = got.Elem()
		}
		rv.Elem().Set(got)
	case ElicitDecline, ElicitCancel:
	default:
		return action, fmt.Errorf("fastmcp: the client answered the elicitation with unknown action %q", res.Action)
	}
	return action, nil
}

// URLElicitation is the outcome of ElicitURL.
type URLElicitation struct {
	// Action is the user's answer: ElicitAccept means the user agreed to open the
	// URL (not that the interaction there is finished).
	Action ElicitAction
	// ID identifies the elicitation (legacy revisions; empty on 2026-07-28).
	ID  string
	ctx *Context
}

// Complete tells the client that the out-of-band interaction of this
// elicitation has finished (notifications/elicitation/complete, protocol
// 2025-11-25). On other revisions it does nothing.
func (e *URLElicitation) Complete() error {
	if e.ID == "" || e.ctx.req.Era.Dropped(protocol.NotificationElicitationComplete) {
		return nil
	}
	return e.ctx.req.Session.Notify(e.ctx, protocol.NotificationElicitationComplete,
		&protocol.ElicitationCompleteParams{ElicitationID: e.ID})
}

// ElicitURL asks the user, through the client, to visit url for an
// interaction that must not pass through the client (credentials, payment):
// elicitation in URL mode. It needs the client's elicitation.url
// capability; without it the error matches ErrElicitationUnsupported.
func (c *Context) ElicitURL(message, url string, opts ...InputOption) (*URLElicitation, error) {
	caps := c.ClientCapabilities()
	if caps.Elicitation == nil || caps.Elicitation.URL == nil {
		return nil, &CapabilityError{Capability: "elicitation.url"}
	}
	params := &protocol.ElicitParams{Mode: protocol.ElicitModeURL, Message: message, URL: url}
	if !c.req.Era.Dropped(protocol.NotificationElicitationComplete) {
		// The id names the elicitation in notifications/elicitation/complete.
		var b [16]byte
		_, _ = rand.Read(b[:])
		params.ElicitationID = hex.EncodeToString(b[:])
	}
	var res protocol.ElicitResult
	if err := c.ask("elicit", inputKey(opts), protocol.MethodElicitationCreate, params, &res); err != nil {
		return nil, err
	}
	return &URLElicitation{Action: ElicitAction(res.Action), ID: params.ElicitationID, ctx: c}, nil
}

// ListRoots asks the client for its roots (roots/list). It needs the
// client's roots capability; without it the error matches
// ErrRootsUnsupported.
func (c *Context) ListRoots(opts ...InputOption) ([]Root, error) {
	if c.ClientCapabilities().Roots == nil {
		return nil, &CapabilityError{Capability: "roots"}
	}
	var res protocol.ListRootsResult
	if err := c.ask("roots", inputKey(opts), protocol.MethodRootsList, &protocol.RequestParams{}, &res); err != nil {
		return nil, err
	}
	return res.Roots, nil
}

// ask sends a server-to-client request: on a legacy session as a request on
// the session (related to the request being served, so it travels on its
// stream); on a modern request through the multi round-trip mechanism.
func (c *Context) ask(kind, key, method string, params, result any) error {
	if c.req.Era.ServerRequests() {
		return c.req.Session.Call(c, method, params, result)
	}
	if c.task != nil {
		if handled, err := c.task.askClient(c, kind, key, method, params, result); handled {
			return err
		}
	}
	if c.in == nil {
		return fmt.Errorf("fastmcp: %s cannot ask the client for input in this request (only tools/call, prompts/get and resources/read can)", method)
	}
	return c.in.ask(kind, key, method, params, result)
}

// inputs is the multi round-trip state of one modern request.
type inputs struct {
	answers map[string]jsontext.Value // gathered in earlier rounds and this one
	n       int                       // input requests made so far in this run
	pending protocol.InputRequests    // requests without an answer yet
	binding string
	princ   string
}

// ask returns the answer to the n-th input request of this run, or records
// the request and returns ErrInputRequired. Keys are deterministic
// ("elicit-1", "sample-2", ...) so a re-run finds its answers.
func (in *inputs) ask(kind, key, method string, params, result any) error {
	in.n++
	if key == "" {
		key = kind + "-" + strconv.Itoa(in.n)
	}
	if _, dup := in.pending[key]; dup {
		return fmt.Errorf("fastmcp: input key %q is used twice in one request", key)
	}
	if raw, ok := in.answers[key]; ok {
		if err := protocol.Unmarshal(raw, result); err != nil {
			return fmt.Errorf("%w: inputResponses[%q]: %v", protocol.ErrInvalidParams, key, err)
		}
		return nil
	}
	raw, err := protocol.Marshal(params)
	if err != nil {
		return fmt.Errorf("fastmcp: encoding %s: %w", method, err)
	}
	if in.pending == nil {
		in.pending = protocol.InputRequests{}
	}
	in.pending[key] = protocol.InputRequest{Method: method, Params: raw}
	return ErrInputRequired
}

// startInputs prepares the multi round-trip state of a modern request from
// its inputResponses and requestState. target and args identify the request
// across retries. A bad requestState is an invalid-params error.
func (c *Context) startInputs(method, target string, args jsontext.Value, responses protocol.InputResponses, state string) error {
	if c.req.Era.ServerRequests() {
		return nil
	}
	in := &inputs{binding: sealedstate.Binding(method, target, args), princ: c.srv.principal(c.req)}
	if state != "" {
		st, err := c.srv.sealer.Open(state, in.binding, in.princ)
		if err != nil {
			return fmt.Errorf("%w: %w", protocol.ErrInvalidParams, err)
		}
		in.answers = st.Answers
	}
	if len(responses) > 0 {
		if in.answers == nil {
			in.answers = map[string]jsontext.Value{}
		}
		for k, v := range responses {
			in.answers[k] = jsontext.Value(v)
		}
	}
	c.in = in
	return nil
}

// inputRequired returns the input_required result when the handler asked
// for input the client has not given yet.
func (c *Context) inputRequired() (*protocol.InputRequiredResult, error) {
	if c.in == nil || len(c.in.pending) == 0 {
		return nil, nil
	}
	state, err := c.srv.sealer.Seal(&sealedstate.State{Binding: c.in.binding, Principal: c.in.princ, Answers: c.in.answers})
	if err != nil {
		return nil, fmt.Errorf("fastmcp: sealing requestState: %w", err)
	}
	return &protocol.InputRequiredResult{
		ResultType:    protocol.ResultTypeInputRequired,
		InputRequests: c.in.pending,
		RequestState:  state,
	}, nil
}

// elicitationSchema returns the cached elicitation schema of t.
func (s *Server) elicitationSchema(t reflect.Type) (*schema.Type, error) {
	if v, ok := s.elicitTypes.Load(t); ok {
		return v.(*schema.Type), nil
	}
	st, err := schema.Elicitation(t)
	if err != nil {
		return nil, fmt.Errorf("fastmcp: Elicit: %w", err)
	}
	v, _ := s.elicitTypes.LoadOrStore(t, st)
	return v.(*schema.Type), nil
}
