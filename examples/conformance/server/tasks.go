package main

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/lowlevel"
)

// GreetArgs are the arguments of greet.
type GreetArgs struct {
	Name string `json:"name" jsonschema:"description=who to greet"`
}

// ComputeArgs are the arguments of slow_compute.
type ComputeArgs struct {
	Seconds float64 `json:"seconds" jsonschema:"description=how long to work in seconds" validate:"gte=0,lte=3600"`
	Label   string  `json:"label,omitempty" jsonschema:"description=a label echoed in the result"`
}

// DeleteArgs are the arguments of confirm_delete.
type DeleteArgs struct {
	Filename string `json:"filename" jsonschema:"description=the file to delete"`
}

// Confirm is the form of confirm_delete and multi_input.
type Confirm struct {
	Confirm bool   `json:"confirm" jsonschema:"description=go ahead?"`
	Name    string `json:"name,omitempty" jsonschema:"description=your name"`
}

// registerTaskTools adds the fixtures of the tasks extension (SEP-2663)
// scenarios.
func registerTaskTools(s *fastmcp.Server) {
	d := fastmcp.Description
	optional, required := fastmcp.TaskSupport(fastmcp.TaskOptional), fastmcp.TaskSupport(fastmcp.TaskRequired)
	s.Tool("greet", func(in GreetArgs) string { return "Hello, " + in.Name + "!" },
		d("Greets by name (never a task)"))
	s.Tool("slow_compute", func(ctx *fastmcp.Context, in ComputeArgs) (string, error) {
		if err := ctx.Progress(0, in.Seconds, "computing "+in.Label); err != nil {
			return "", err
		}
		if err := sleep(ctx, time.Duration(in.Seconds*float64(time.Second))); err != nil {
			return "", err
		}
		return fmt.Sprintf("computed %s in %gs", in.Label, in.Seconds), nil
	}, optional, d("Works for the given seconds, then answers; runs as a task when the client supports it"))
	s.Tool("failing_job", func(ctx *fastmcp.Context) (string, error) {
		if err := sleep(ctx, time.Second); err != nil {
			return "", err
		}
		return "", errors.New("the job failed")
	}, required, d("Fails after a second with a tool error; only runs as a task"))
	s.Tool("protocol_error_job", func(ctx *fastmcp.Context) (string, error) {
		return "", fmt.Errorf("%w: the job crashed", lowlevel.ErrInternal)
	}, optional, d("Fails with a protocol error"))
	s.Tool("confirm_delete", func(ctx *fastmcp.Context, in DeleteArgs) (string, error) {
		var c Confirm
		action, err := ctx.Elicit("Delete "+in.Filename+"?", &c, fastmcp.InputKey("confirm"))
		if err != nil {
			return "", err
		}
		if action != fastmcp.ElicitAccept || !c.Confirm {
			return "kept " + in.Filename, nil
		}
		return "deleted " + in.Filename, nil
	}, optional, d("Asks for confirmation, then deletes the file"))
	s.Tool("multi_input", func(ctx *fastmcp.Context) (string, error) {
		var (
			wg   sync.WaitGroup
			a, b Confirm
			errs [2]error
		)
		wg.Add(2)
		go func() { defer wg.Done(); _, errs[0] = ctx.Elicit("First?", &a, fastmcp.InputKey("first")) }()
		go func() { defer wg.Done(); _, errs[1] = ctx.Elicit("Second?", &b, fastmcp.InputKey("second")) }()
		wg.Wait()
		if err := errors.Join(errs[:]...); err != nil {
			return "", err
		}
		return "got " + a.Name + " and " + b.Name, nil
	}, optional, d("Asks two questions at once"))
	s.Tool("test_tool_with_task", func(ctx *fastmcp.Context) (string, error) {
		var n Name
		if _, err := ctx.Elicit("What is your name?", &n, fastmcp.InputKey("user_name")); err != nil {
			return "", err
		}
		if err := sleep(ctx, time.Second); err != nil {
			return "", err
		}
		return "Hello, " + n.Name + "!", nil
	}, fastmcp.TaskSupport(fastmcp.TaskRequired).After(100*time.Millisecond),
		d("Asks for a name, then goes on as a task"))
}
