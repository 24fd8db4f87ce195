package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// version is the command's version, set at link time with
// -ldflags "-X main.version=v1.2.3"; a `go install`ed binary reports its
// module version instead (see buildVersion).
var version = ""

// app holds what every command shares: the streams, the global flags and
// whether the streams are terminals.
//
// What the server sends reaches the user through emit (a command's
// result) and status (the lines on stderr), which escape it and bound it
// (see humanWriter); rawStdout and rawStderr are for the command's own
// words only.
type app struct {
	stdin                io.Reader
	rawStdout, rawStderr io.Writer
	in                   *lineReader // stdin, read a line at a time by the prompts

	// global flags
	headers    []string
	oauth      bool
	noBrowser  bool
	protocol   string
	timeout    time.Duration
	jsonOut    bool
	noInput    bool
	logLevel   string
	verbose    bool
	maxOutput  byteSize // --max-output
	outFile    string   // -o
	stderrTerm bool     // stderr is a terminal: progress bars
	stdinTerm  bool     // stdin is a terminal: the user types answers (echoed otherwise)

	stderrTail *tailBuffer // the stderr of a server started with --, kept (see serverStderr)

	statusOnce sync.Once
	st         *statusLine // see status
}

// newApp returns the app on the given streams, noting which are terminals.
func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	a := &app{stdin: stdin, rawStdout: stdout, rawStderr: stderr, in: newLineReader(stdin), maxOutput: defaultMaxOutput}
	if f, ok := stderr.(*os.File); ok {
		a.stderrTerm = term.IsTerminal(int(f.Fd()))
	}
	if f, ok := stdin.(*os.File); ok {
		a.stdinTerm = term.IsTerminal(int(f.Fd()))
	}
	return a
}

// commands is the command table: one constructor per file.
func (a *app) commands() []*cobra.Command {
	return []*cobra.Command{
		a.listCommand(),
		a.inspectCommand(),
		a.callCommand(),
		a.readCommand(),
		a.promptCommand(),
		a.pingCommand(),
		a.completionCommand(),
		a.devCommand(),
		a.proxyCommand(),
	}
}

// rootCommand returns the fastmcp command with every subcommand.
func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "fastmcp",
		Short: "List, call and inspect any MCP server from the terminal",
		Long: `fastmcp talks to any MCP server: one it starts (its command after --, over
stdio) or one at a URL (Streamable HTTP, falling back to the legacy SSE
transport).

Exit codes: 0 success; 1 the server answered with an error; 2 a mistake on
the command line (flags, arguments, an unknown tool); 3 the server could not
be started, reached or authorized; 4 the tool ran and reported an error
(isError); 130 interrupted.`,
		Example: `  fastmcp list tools -- npx -y @modelcontextprotocol/server-everything
  fastmcp inspect https://example.com/mcp --oauth
  fastmcp call http://127.0.0.1:8080/mcp add a=1 b=2
  fastmcp read https://example.com/mcp -H 'Authorization: Bearer T' file:///README.md`,
		Version:           buildVersion(),
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetIn(a.stdin)
	root.SetOut(a.rawStdout)
	root.SetErr(a.rawStderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usage(err) })
	root.SetVersionTemplate("fastmcp {{.Version}}\n")
	f := root.PersistentFlags()
	f.StringArrayVarP(&a.headers, "header", "H", nil, "add the HTTP header `'Name: value'` to every request (repeatable)")
	f.BoolVar(&a.oauth, "oauth", false, "authorize with the server's OAuth authorization server; tokens are kept per user and server")
	f.BoolVar(&a.noBrowser, "no-browser", false, "with --oauth, print the authorization URL instead of opening a browser")
	f.StringVar(&a.protocol, "protocol", "", "speak this protocol `revision` (e.g. 2025-06-18, 2026-07-28); default: the newest both sides speak")
	f.DurationVar(&a.timeout, "timeout", 0, "give up after this long (e.g. 30s); default: no limit")
	f.BoolVar(&a.noInput, "no-input", false, "never prompt: decline the server's elicitation requests, fail where a login is needed")
	f.StringVar(&a.logLevel, "log-level", "info", "the least severe server log `level` shown on stderr (debug, info, notice, warning, error, ...)")
	f.BoolVarP(&a.verbose, "verbose", "v", false, "log what the client does (connection, retries) to stderr")
	f.Var(&a.maxOutput, "max-output", "print at most this much of a result, and of each server message on stderr, then say how much is cut (e.g. 64K, 4MiB; 0: no limit)")
	for _, c := range a.commands() {
		root.AddCommand(c)
	}
	return root
}

// resultFlags adds --json and -o to a command that prints a result.
func (a *app) resultFlags(c *cobra.Command, what string) {
	c.Flags().BoolVar(&a.jsonOut, "json", false, "print "+what+" as JSON, for scripts")
	c.Flags().StringVarP(&a.outFile, "output", "o", "", "write "+what+" to `FILE`, the server's text exactly as sent and in full (with --json: the JSON)")
}

// seeAll is how to see a result cut by --max-output.
const seeAll = "--max-output 0 shows it all, --json or -o FILE exactly"

// emit prints a command's result: v as JSON with --json, else what human
// writes for a person. It goes to the file of -o, exactly as it is (the
// JSON, or the server's text as sent and in full), else to stdout, or to
// stderr when toStderr (a tool's error result) and not --json; on stdout
// and stderr, the text for a person is escaped and bounded by
// --max-output (see humanWriter).
func (a *app) emit(v any, toStderr bool, human func(w *humanWriter) error) (err error) {
	w := a.rawStdout
	if toStderr && !a.jsonOut {
		w = a.rawStderr
	}
	exact := false
	if a.outFile != "" {
		f, ferr := os.Create(a.outFile)
		if ferr != nil {
			return fmt.Errorf("-o: %w", ferr)
		}
		defer func() {
			if cerr := f.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("-o: %w", cerr)
			}
		}()
		w, exact = f, true
	}
	if a.jsonOut {
		return printJSON(w, v)
	}
	h := &humanWriter{w: w, exact: exact, limit: int64(a.maxOutput), hint: seeAll, lead: "\n"}
	if err := human(h); err != nil {
		return err
	}
	return h.end()
}

// errorText is the one line printed for an error that ends the command:
// escaped, and bounded by --max-output (server error messages are in it).
func (a *app) errorText(err error) string {
	return humanText(message(err), int64(a.maxOutput), "--max-output 0 shows it all")
}

// argsBetween checks that a command has between min and max positional
// arguments (max < 0: no limit), counting a command after -- as one, and
// reports a usage error otherwise.
func argsBetween(min, max int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		n := len(args)
		if d := c.ArgsLenAtDash(); d >= 0 {
			n = d + 1 // the command after -- counts as the target
		}
		switch {
		case n < min:
			return usage(fmt.Errorf("missing arguments; usage: %s", c.UseLine()))
		case max >= 0 && n > max:
			return usage(fmt.Errorf("too many arguments; usage: %s", c.UseLine()))
		}
		if d := c.ArgsLenAtDash(); d >= 0 && d == len(args) {
			return usage(errors.New("nothing after --: give the server's command, e.g. -- ./my-server --stdio"))
		}
		return nil
	}
}
