// Command driver is the load driver of the whole-process comparison (see
// ../../README.md): it builds every server program with the same flags,
// runs each as a real process, drives it over stdio and loopback HTTP,
// checks every answer, and prints one markdown table of medians with
// ratios to the hand-written floor. Run it in bench/compare:
//
//	go run ./cmd/driver [-rounds 5] [-dur 1s]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// config is what the flags set.
type config struct {
	goCmd     string
	rounds    int
	warm, dur time.Duration
	starts    int
	window    int
	sessions  int
}

func main() {
	var cfg config
	flag.StringVar(&cfg.goCmd, "go", "go", "the go command that builds the servers")
	flag.IntVar(&cfg.rounds, "rounds", 7, "rounds; each measures every row of every server once, in a rotated order")
	flag.DurationVar(&cfg.warm, "warm", 300*time.Millisecond, "load before a throughput measurement starts")
	flag.DurationVar(&cfg.dur, "dur", time.Second, "length of one throughput measurement")
	flag.IntVar(&cfg.starts, "starts", 5, "process starts per server per round for the start-up row")
	flag.IntVar(&cfg.window, "window", 16, "calls in flight in the stdio throughput row")
	flag.IntVar(&cfg.sessions, "sessions", 4, "concurrent sessions in the HTTP row")
	flag.Parse()

	// The first SIGINT or SIGTERM cancels the builds and kills the servers,
	// so that run returns and the binaries are removed; a second one exits.
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() { // lives as long as the driver
		<-sig
		fmt.Fprintln(os.Stderr, "driver: interrupted")
		cancel()
		killAll()
		<-sig
		os.Exit(2)
	}()

	dir, err := os.MkdirTemp("", "bench-compare-")
	if err == nil {
		err = run(ctx, &cfg, dir)
		killAll()
		os.RemoveAll(dir)
	}
	if ctx.Err() != nil {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "driver:", err)
		os.Exit(1)
	}
}

// run builds the servers into dir, measures them and prints the table.
func run(ctx context.Context, cfg *config, dir string) error {
	t0 := time.Now()
	modDir, err := moduleDir(cfg.goCmd)
	if err != nil {
		return err
	}

	srvs := servers()
	for _, s := range srvs {
		progress("building %s", s.name)
		if err := build(ctx, cfg.goCmd, modDir, dir, s); err != nil {
			return err
		}
	}
	for _, s := range srvs {
		if err := preflight(s.name, s.bin); err != nil {
			return fmt.Errorf("checking %s: %w", s.name, err)
		}
	}

	seq := newRow("stdio, one call at a time", perSecond)
	par := newRow(fmt.Sprintf("stdio, %d in flight", cfg.window), perSecond)
	web := newRow(fmt.Sprintf("HTTP, %d sessions", cfg.sessions), perSecond)
	boot := newRow("start → initialize answered, 100 tools", millis)
	rss := newRow("peak RSS under load", megabytes)
	size := newRow("binary size", megabytes)
	sizeS := newRow("binary size, -ldflags=-s -w", megabytes)
	for _, s := range srvs {
		size.add(s.name, float64(s.size))
		sizeS.add(s.name, float64(s.sizeS))
	}

	for r := range cfg.rounds {
		order := rotate(srvs, r)
		progress("round %d/%d", r+1, cfg.rounds)
		peak := map[string]int64{}
		for _, s := range order {
			for _, m := range []struct {
				row *row
				run func() (float64, int64, error)
			}{
				{seq, func() (float64, int64, error) { return runStdio(s, 1, cfg) }},
				{par, func() (float64, int64, error) { return runStdio(s, cfg.window, cfg) }},
				{web, func() (float64, int64, error) { return runHTTP(s, cfg) }},
			} {
				rate, mem, err := m.run()
				if err != nil {
					return err
				}
				m.row.add(s.name, rate)
				peak[s.name] = max(peak[s.name], mem)
			}
		}
		for _, s := range order {
			rss.add(s.name, float64(peak[s.name]))
		}
		for range cfg.starts {
			for _, s := range order {
				d, err := startup(s, r == 0)
				if err != nil {
					return fmt.Errorf("%s start-up: %w", s.name, err)
				}
				boot.add(s.name, d.Seconds())
			}
		}
	}

	fmt.Printf("Whole process, %s, %s, %d CPUs (%s), %s; %d rounds of %v per throughput cell; took %v.\n\n",
		runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH, runtime.NumCPU(), cpuModel(),
		time.Now().UTC().Format("2006-01-02"), cfg.rounds, cfg.dur, time.Since(t0).Round(time.Second))
	printTable(os.Stdout, srvs, []*row{seq, par, web, boot, rss, size, sizeS})
	return nil
}

// rotate returns srvs starting at the r-th, so that no server always runs
// right after the same neighbour.
func rotate(srvs []*server, r int) []*server {
	r %= len(srvs)
	return append(append([]*server(nil), srvs[r:]...), srvs[:r]...)
}

// progress reports on stderr what the driver is doing.
func progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "driver: "+format+"\n", args...)
}

// cpuModel returns the processor's name, if /proc/cpuinfo tells.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
