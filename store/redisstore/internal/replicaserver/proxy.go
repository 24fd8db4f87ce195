package replicaserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"

	"github.com/fastmcp-go/fastmcp/transport"
)

// Proxy is a round-robin load balancer in front of replicas, as a
// deployment puts one: each request goes to the next replica up; a replica
// that refuses the connection is marked down and the request goes to the
// next one (a passive health check); a replica that dies while streaming
// an answer breaks that stream, as a real one would. With Sticky, a legacy
// session's requests (Mcp-Session-Id) go to the replica that created it,
// as long as it is up.
//
// It counts the streams it holds open, per kind, so that a test can wait
// until clients have come back after a replica died.
type Proxy struct {
	// Sticky routes a legacy session's requests to the replica that
	// answered its initialize.
	Sticky bool

	backends []*url.URL
	down     []atomic.Bool
	subs     sync.Map // ClientHeader value + " " + uri → replica of its resources/subscribe
	next     atomic.Uint64
	rp       *httputil.ReverseProxy
	sessions sync.Map // session id → backend index

	mu      sync.Mutex
	changed chan struct{} // closed and replaced when a count changes
	listens int           // subscriptions/listen POSTs being answered
	gets    int           // GET streams being answered
}

// ClientHeader is the request header by which a test names a client, for
// SubscribedOn.
const ClientHeader = "X-Test-Client"

// SubscribedOn returns the replica that served the last resources/subscribe
// of uri by the client whose requests carry ClientHeader: client (a test
// checks that the subscriptions a replica took survive it).
func (p *Proxy) SubscribedOn(client, uri string) (replica int, ok bool) {
	v, ok := p.subs.Load(client + " " + uri)
	if !ok {
		return 0, false
	}
	return v.(int), true
}

// NewProxy returns a proxy in front of the replicas at urls (their MCP
// endpoints; the request's path is replaced by theirs).
func NewProxy(urls ...string) (*Proxy, error) {
	p := &Proxy{down: make([]atomic.Bool, len(urls)), changed: make(chan struct{})}
	for _, u := range urls {
		pu, err := url.Parse(u)
		if err != nil {
			return nil, err
		}
		p.backends = append(p.backends, pu)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			b := pr.In.Context().Value(backendKey{}).(*attempt)
			pr.Out.URL = &url.URL{Scheme: p.backends[b.index].Scheme, Host: p.backends[b.index].Host,
				Path: p.backends[b.index].Path, RawQuery: pr.In.URL.RawQuery}
			pr.Out.Host = p.backends[b.index].Host
		},
		Transport:     tr,
		FlushInterval: -1,
		ErrorLog:      log.New(io.Discard, "", 0), // a replica killed mid-stream is expected
		ModifyResponse: func(r *http.Response) error {
			b := r.Request.Context().Value(backendKey{}).(*attempt)
			if sid := r.Header.Get(transport.HeaderSessionID); sid != "" {
				p.sessions.LoadOrStore(sid, b.index)
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			b := r.Context().Value(backendKey{}).(*attempt)
			if refused(err) {
				b.dialFailed = true // nothing written: the next replica gets the request
				return
			}
			w.WriteHeader(http.StatusBadGateway)
		},
	}
	return p, nil
}

type backendKey struct{}

// attempt is one try of a request on one replica.
type attempt struct {
	index      int
	dialFailed bool
}

// refused reports whether err is a failure to connect (the replica is down),
// before anything was sent.
func refused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// ServeHTTP forwards r to a replica.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch {
	case r.Method == http.MethodGet:
		defer p.count(&p.gets)()
	case r.Header.Get(transport.HeaderMethod) == "subscriptions/listen":
		defer p.count(&p.listens)()
	}
	n := len(p.backends)
	live := make([]int, 0, n)
	for i := range n {
		if !p.down[i].Load() {
			live = append(live, i)
		}
	}
	if len(live) == 0 {
		http.Error(w, "no replica is up", http.StatusBadGateway)
		return
	}
	first := live[p.next.Add(1)%uint64(len(live))]
	if sid := r.Header.Get(transport.HeaderSessionID); p.Sticky && sid != "" {
		if i, ok := p.sessions.Load(sid); ok {
			first = i.(int)
		}
	}
	for k := range n {
		i := (first + k) % n
		if p.down[i].Load() {
			continue
		}
		a := &attempt{index: i}
		out := r.Clone(context.WithValue(r.Context(), backendKey{}, a))
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.ContentLength = int64(len(body))
		p.rp.ServeHTTP(w, out)
		if !a.dialFailed {
			if uri, ok := subscribeURI(r, body); ok {
				p.subs.Store(r.Header.Get(ClientHeader)+" "+uri, i)
			}
			return
		}
		p.down[i].Store(true)
	}
	http.Error(w, "no replica is up", http.StatusBadGateway)
}

// count adds one to *n and returns the function that takes it back.
func (p *Proxy) count(n *int) func() {
	p.bump(n, 1)
	return func() { p.bump(n, -1) }
}

func (p *Proxy) bump(n *int, d int) {
	p.mu.Lock()
	*n += d
	close(p.changed)
	p.changed = make(chan struct{})
	p.mu.Unlock()
}

// Streams returns how many subscriptions/listen streams and GET streams
// the proxy is answering now.
func (p *Proxy) Streams() (listens, gets int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.listens, p.gets
}

// WaitStreams waits until ok holds for the counts of Streams, or ctx is
// done.
func (p *Proxy) WaitStreams(ctx context.Context, ok func(listens, gets int) bool) error {
	for {
		p.mu.Lock()
		l, g, ch := p.listens, p.gets, p.changed
		p.mu.Unlock()
		if ok(l, g) {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// Down reports which replicas the proxy found down.
func (p *Proxy) Down() []bool {
	out := make([]bool, len(p.down))
	for i := range p.down {
		out[i] = p.down[i].Load()
	}
	return out
}

// subscribeURI returns the uri of a resources/subscribe request.
func subscribeURI(r *http.Request, body []byte) (string, bool) {
	if r.Method != http.MethodPost || r.Header.Get(ClientHeader) == "" {
		return "", false
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			URI string `json:"uri"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &m) != nil || m.Method != "resources/subscribe" {
		return "", false
	}
	return m.Params.URI, true
}
