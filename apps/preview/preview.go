package preview

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/apps"
	"github.com/fastmcp-go/fastmcp/client"
)

//go:embed static
var staticFS embed.FS

var pageTemplate = template.Must(template.ParseFS(staticFS, "static/index.html", "static/sandbox.html"))

// Options configures a Preview. The zero value (or nil) works.
type Options struct {
	// Title is shown at the top of the page; default: the server's name.
	Title string
	// SandboxURL is the base URL (scheme://host:port) where SandboxHandler
	// is served. It must be another origin than the page's. Serve and
	// ListenAndServe set it from their sandbox listener; set it only when
	// you mount the two handlers yourself.
	SandboxURL string
	// Logger receives one line per request the page proxies to the server
	// and per refused request; default: discarded.
	Logger *slog.Logger
}

// Preview is the preview host for one connected client. Its handlers may
// be used from any number of goroutines.
type Preview struct {
	client *client.Client
	title  string
	token  string
	logger *slog.Logger

	mu         sync.Mutex
	sandboxURL string
}

// New returns a preview of the server the client is connected to. The
// client stays the caller's: the preview neither closes it nor changes it.
func New(cl *client.Client, opts *Options) *Preview {
	if opts == nil {
		opts = &Options{}
	}
	var b [24]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	p := &Preview{
		client:     cl,
		title:      opts.Title,
		token:      hex.EncodeToString(b[:]),
		logger:     opts.Logger,
		sandboxURL: opts.SandboxURL,
	}
	if p.logger == nil {
		p.logger = slog.New(slog.DiscardHandler)
	}
	if p.title == "" && cl != nil {
		if si := cl.ServerInfo(); si != nil {
			p.title = si.Name
		}
	}
	return p
}

func (p *Preview) setSandboxURL(u string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sandboxURL = u
}

func (p *Preview) sandbox() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.sandboxURL
}

// Handler returns the handler of the page: the page itself at /, its
// scripts under /static/, and its JSON endpoints under /api/. It answers
// only requests whose Host is localhost or a loopback address.
func (p *Preview) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", p.servePage)
	sub, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(sub)))
	api := func(path string, h http.HandlerFunc) {
		mux.Handle("/api/"+path, requireToken(p.token, h))
	}
	api("tools", p.apiTools)
	api("arguments", p.apiArguments)
	api("call", p.apiCall)
	api("view", p.apiView)
	api("view/tools/call", p.apiViewCall)
	api("view/tools/list", p.apiViewTools)
	api("view/resources/read", p.apiViewRead)
	return requireLoopback(secureHeaders(mux))
}

// SandboxHandler returns the handler of the sandbox proxy, the page that
// holds a view. Serve it on another origin than Handler (Serve and
// ListenAndServe use a second port). It answers only requests whose Host
// is localhost or a loopback address.
func (p *Preview) SandboxHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", p.serveSandbox)
	mux.HandleFunc("GET /sandbox.js", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, staticFS, "static/sandbox.js")
	})
	return requireLoopback(mux)
}

func secureHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

func (p *Preview) servePage(w http.ResponseWriter, r *http.Request) {
	sb := p.sandbox()
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src "+sb+"; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	err := pageTemplate.ExecuteTemplate(w, "index.html", map[string]string{
		"Title":      p.title,
		"Token":      p.token,
		"SandboxURL": sb,
	})
	if err != nil {
		p.logger.Error("preview: rendering the page", "error", err)
	}
}

// serveSandbox serves the proxy page under the view's CSP, which the
// view's srcdoc frame inherits. The page's origin comes in the host query
// parameter; only a loopback http origin is accepted.
func (p *Preview) serveSandbox(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	host := q.Get("host")
	if !loopbackOrigin(host) {
		http.Error(w, "preview: sandbox: the host parameter must be the preview page's origin", http.StatusBadRequest)
		return
	}
	var csp *apps.CSP
	if c := q.Get("csp"); c != "" {
		decodeJSONString(c, &csp)
	}
	policy, dropped := viewCSP(csp)
	if len(dropped) > 0 {
		p.logger.Warn("preview: ignoring invalid CSP sources in the view's _meta.ui.csp", "sources", dropped)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", policy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if err := pageTemplate.ExecuteTemplate(w, "sandbox.html", map[string]string{"Host": host}); err != nil {
		p.logger.Error("preview: rendering the sandbox", "error", err)
	}
}

// Serve serves the page on page and the sandbox proxy on sandbox until ctx
// is done, then shuts both down and returns nil. The listeners must differ
// (they give the view its own origin); Serve closes them. It returns the
// first error of either server otherwise.
func (p *Preview) Serve(ctx context.Context, page, sandbox net.Listener) error {
	p.setSandboxURL("http://" + sandbox.Addr().String())
	servers := []*http.Server{
		{Handler: p.Handler(), ReadHeaderTimeout: 10 * time.Second},
		{Handler: p.SandboxHandler(), ReadHeaderTimeout: 10 * time.Second},
	}
	listeners := []net.Listener{page, sandbox}
	errc := make(chan error, len(servers))
	for i, s := range servers {
		go func() { errc <- s.Serve(listeners[i]) }()
	}
	var first error
	select {
	case <-ctx.Done():
	case first = <-errc:
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	for _, s := range servers {
		_ = s.Shutdown(sctx)
	}
	// Wait for every Serve goroutine: the one already received plus the rest.
	pending := len(servers)
	if first != nil {
		pending--
	}
	for range pending {
		if err := <-errc; first == nil && !errors.Is(err, http.ErrServerClosed) {
			first = err
		}
	}
	if errors.Is(first, http.ErrServerClosed) {
		first = nil
	}
	if first != nil {
		return fmt.Errorf("preview: %w", first)
	}
	return nil
}

// ErrNotLoopback is returned by ListenAndServe for an address that is not
// on a loopback interface: the preview is for the machine it runs on.
var ErrNotLoopback = errors.New("preview: the address must be on 127.0.0.1, ::1 or localhost")

// ListenAndServe listens on addr (default "127.0.0.1:0", a free port) for
// the page and on another free port of the same host for the sandbox
// proxy, writes "Preview: URL" to out (if not nil), and serves until ctx
// is done.
func (p *Preview) ListenAndServe(ctx context.Context, addr string, out io.Writer) error {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("preview: address %q: %w", addr, err)
	}
	if !loopbackHost(host) {
		return fmt.Errorf("%w (got %q)", ErrNotLoopback, addr)
	}
	var lc net.ListenConfig
	page, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("preview: %w", err)
	}
	sandbox, err := lc.Listen(ctx, "tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		page.Close()
		return fmt.Errorf("preview: %w", err)
	}
	if out != nil {
		fmt.Fprintf(out, "Preview: http://%s/\n", page.Addr())
	}
	return p.Serve(ctx, page, sandbox)
}
