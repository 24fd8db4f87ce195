// Command asdriver plays the user for `conformance authorization`: it runs
// the command after its flags, copies its output, and when the command
// prints the authorization URL it waits with, follows it through the demo
// login and consent pages (package oauthtest) so that the redirect reaches
// the command's callback. It exits with the command's status.
//
//	asdriver [-user NAME] -- node conformance authorization --url ISSUER --client-id ID --port P
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/oauthserver/oauthtest"
)

func main() {
	user := flag.String("user", "conformance", "the `NAME` typed into the demo login")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "asdriver: no command: asdriver [-user NAME] -- COMMAND ARGS...")
		os.Exit(2)
	}
	os.Exit(run(*user, flag.Args()))
}

// run runs args, answering the authorization URLs it prints, and returns
// its exit status.
func run(user string, args []string) int {
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "asdriver:", err)
		return 2
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "asdriver:", err)
		return 2
	}
	done := make(chan struct{})
	go func() { // ends with the command's output
		defer close(done)
		answer(out, user)
	}()
	<-done
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "asdriver:", err)
		return 2
	}
	return 0
}

// answer copies the command's output and opens every authorization URL
// in it.
func answer(out io.Reader, user string) {
	var opens sync.WaitGroup
	defer opens.Wait()
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Println(line)
		for _, u := range strings.Fields(line) { // "URL" alone, or "Please navigate to: URL"
			if strings.HasPrefix(u, "http") && strings.Contains(u, "/authorize?") {
				opens.Go(func() { open(user, u) }) // the command waits for the callback meanwhile
			}
		}
	}
	_, _ = io.Copy(os.Stdout, out)
}

// open follows u as the user's browser would, once its redirect URI
// listens (the suite prints the URL before it starts its callback server).
func open(user, u string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if p, err := url.Parse(u); err == nil {
		if r, err := url.Parse(p.Query().Get("redirect_uri")); err == nil && r.Host != "" {
			waitListening(ctx, r.Host)
		}
	}
	if err := oauthtest.New(user).OpenURL(ctx, u); err != nil {
		fmt.Fprintln(os.Stderr, "asdriver: following the authorization URL:", err)
	}
}

// waitListening waits until host accepts connections, or ctx ends.
func waitListening(ctx context.Context, host string) {
	var d net.Dialer
	for ctx.Err() == nil {
		if c, err := d.DialContext(ctx, "tcp", host); err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
