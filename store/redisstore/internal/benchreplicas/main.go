// Command replicas measures calls per second and latency of a fastmcp
// server run as one process and as several replicas on the Redis stores
// behind a round-robin proxy (docs/scale.md). It starts its own
// redis-server (which must be installed) and runs itself again as each
// replica (internal/replicaserver), then prints a Markdown table:
//
//	go run ./internal/benchreplicas [-clients 16] [-rounds 3] [-duration 2s]
//
// or make bench-replicas. Every setup is driven by the same fastmcp
// clients, each calling one tool after another: add (a JSON answer on
// 2026-07-28) and work with 4 progress notifications (an SSE answer, whose
// events a legacy session stores for resumption: in Redis on the Redis
// stores).
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fastmcp-go/fastmcp/client"
	"github.com/fastmcp-go/fastmcp/protocol"
	"github.com/fastmcp-go/fastmcp/store/redisstore/internal/replicaserver"
)

// envReplica makes the program run as a replica.
const envReplica = "FASTMCP_BENCH_REPLICA"

func main() {
	if os.Getenv(envReplica) == "1" {
		os.Exit(replicaserver.Main())
	}
	clients := flag.Int("clients", 16, "concurrent clients")
	duration := flag.Duration("duration", 2*time.Second, "measuring time per row and round (after a warm-up of a fifth of it)")
	rounds := flag.Int("rounds", 3, "rounds; each row shows the medians")
	flag.Parse()
	if err := run(*clients, *rounds, *duration); err != nil {
		fmt.Fprintln(os.Stderr, "replicas:", err)
		os.Exit(1)
	}
}

// setup is one way of running the server.
type setup struct {
	name     string
	replicas int
	redis    bool
	proxy    bool
}

var setups = []setup{
	{"in-memory, 1 process, direct", 1, false, false},
	{"in-memory, 1 process, proxy", 1, false, true},
	{"Redis, 1 replica, proxy", 1, true, true},
	{"Redis, 3 replicas, proxy", 3, true, true},
}

// load is what the clients do.
type load struct {
	era, tool string
}

var loads = []load{
	{"2026-07-28", "add"},
	{"2026-07-28", "work"},
	{"2025-11-25", "add"},
	{"2025-11-25", "work"},
}

func run(clients, rounds int, duration time.Duration) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	rds, err := startRedis()
	if err != nil {
		return err
	}
	defer rds.stop()
	// Every setup runs at once; the rounds go through them in turn, so
	// that a slow moment of the machine does not fall on one setup only.
	targets := make([]string, len(setups))
	for si, s := range setups {
		var urls []string
		for i := range s.replicas {
			env := []string{envReplica + "=1", replicaserver.EnvName + "=r" + fmt.Sprint(i)}
			if s.redis {
				env = append(env, "FASTMCP_REDIS_URL=redis://"+rds.addr)
			}
			cmd, url, err := startReplica(self, env)
			if err != nil {
				return err
			}
			defer func() {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				_ = cmd.Wait()
			}()
			urls = append(urls, url)
		}
		targets[si] = urls[0]
		if s.proxy {
			p, err := replicaserver.NewProxy(urls...)
			if err != nil {
				return err
			}
			p.Sticky = true // legacy sessions live on one replica
			ts := httptest.NewServer(p)
			defer ts.Close()
			targets[si] = ts.URL + "/mcp"
		}
	}
	results := make([][][]stats, len(setups)) // setup, load, round
	for si := range setups {
		results[si] = make([][]stats, len(loads))
	}
	for range rounds {
		for si, s := range setups {
			for li, l := range loads {
				st, err := measure(targets[si], l, clients, duration)
				if err != nil {
					return fmt.Errorf("%s, %s %s: %w", s.name, l.era, l.tool, err)
				}
				results[si][li] = append(results[si][li], st)
			}
		}
	}
	fmt.Printf("%d clients, %d rounds of %v per row (medians), GOMAXPROCS %d\n\n", clients, rounds, duration, runtime.GOMAXPROCS(0))
	fmt.Println("| setup | protocol | tool | calls/s | p50 | p99 |")
	fmt.Println("| --- | --- | --- | ---: | ---: | ---: |")
	for si, s := range setups {
		for li, l := range loads {
			rs := results[si][li]
			rate := median(rs, func(s stats) float64 { return s.rate })
			p50 := median(rs, func(s stats) float64 { return float64(s.p50) })
			p99 := median(rs, func(s stats) float64 { return float64(s.p99) })
			fmt.Printf("| %s | %s | %s | %.0f | %s | %s |\n", s.name, l.era, l.tool, rate, ms(time.Duration(p50)), ms(time.Duration(p99)))
		}
	}
	return nil
}

// median returns the median of f over rs.
func median(rs []stats, f func(stats) float64) float64 {
	v := make([]float64, len(rs))
	for i, r := range rs {
		v[i] = f(r)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

type stats struct {
	rate     float64
	p50, p99 time.Duration
}

// measure runs clients clients calling l.tool over l.era at url, a warm-up
// then duration, and returns the throughput and latency percentiles of the
// measured calls.
func measure(url string, l load, clients int, duration time.Duration) (stats, error) {
	ctx := context.Background()
	cs := make([]*client.Client, clients)
	for i := range cs {
		c, err := client.ConnectHTTP(ctx, url, client.WithProtocolVersion(l.era),
			client.WithLogger(slog.New(slog.DiscardHandler)))
		if err != nil {
			return stats{}, err
		}
		defer c.Close()
		cs[i] = c
	}
	var args any = replicaserver.AddArgs{A: 1, B: 2}
	var opts []client.CallOption
	if l.tool == "work" {
		args = replicaserver.WorkArgs{ID: "bench", Steps: 4}
		opts = append(opts, client.WithProgress(func(*protocol.ProgressParams) {}))
	}
	warm := duration / 5
	start := time.Now()
	measureFrom, end := start.Add(warm), start.Add(warm+duration)
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	for _, c := range cs {
		wg.Go(func() {
			var mine []time.Duration
			for {
				t0 := time.Now()
				if t0.After(end) {
					break
				}
				res, err := c.CallTool(ctx, l.tool, args, opts...)
				if err == nil && res.IsError {
					err = errors.New(res.Text())
				}
				if err != nil {
					mu.Lock()
					firstErr = cmpOr(firstErr, err)
					mu.Unlock()
					return
				}
				if t0.After(measureFrom) {
					mine = append(mine, time.Since(t0))
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	if firstErr != nil {
		return stats{}, firstErr
	}
	if len(lat) == 0 {
		return stats{}, errors.New("no call completed")
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	return stats{rate: float64(len(lat)) / duration.Seconds(), p50: pct(0.50), p99: pct(0.99)}, nil
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// startReplica runs this program as a replica with env and returns it with
// its MCP endpoint's URL.
func startReplica(self string, env []string) (*exec.Cmd, string, error) {
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, "", err
	}
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), replicaserver.ListeningPrefix); ok {
			go func() { // drains stdout until the replica exits
				for sc.Scan() {
				}
			}()
			return cmd, u, nil
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	return nil, "", errors.New("a replica exited before listening")
}

// redisServer is the redis-server the program started.
type redisServer struct {
	addr string
	cmd  *exec.Cmd
	dir  string
}

// startRedis starts redis-server without persistence on a free loopback
// port in a temporary directory.
func startRedis() (*redisServer, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("redis-server is not installed (Debian: apt-get install redis-server)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	dir, err := os.MkdirTemp("", "bench-redis-")
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd := exec.Command(bin, "--port", fmt.Sprint(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
		"--dir", dir, "--loglevel", "warning")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	r := &redisServer{addr: fmt.Sprintf("127.0.0.1:%d", port), cmd: cmd, dir: dir}
	for range 500 { // up to 5 s for it to accept connections
		c, err := net.Dial("tcp", r.addr)
		if err == nil {
			c.Close()
			return r, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.stop()
	return nil, fmt.Errorf("redis-server did not start: %s", out.Bytes())
}

func (r *redisServer) stop() {
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
	os.RemoveAll(r.dir)
}
