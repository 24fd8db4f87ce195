package exampletest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// fakeTB records the failures Run and Equal report.
type fakeTB struct {
	testing.TB
	ctx    context.Context
	failed []string
}

func (f *fakeTB) Helper()                  {}
func (f *fakeTB) Context() context.Context { return f.ctx }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.failed = append(f.failed, fmt.Sprintf(format, args...))
}

func (f *fakeTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	panic(f)
}

// run calls Run on a fake test and returns its output and failures.
func run(t *testing.T, fn func(context.Context, io.Writer) error) (out string, failed []string) {
	f := &fakeTB{ctx: t.Context()}
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
		failed = f.failed
	}()
	return Run(f, fn), nil
}

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		fn     func(context.Context, io.Writer) error
		out    string
		failed string // a text the failure shows; "" for none
	}{
		{"output", func(_ context.Context, w io.Writer) error {
			_, err := io.WriteString(w, "hello\n")
			return err
		}, "hello\n", ""},
		{"error", func(_ context.Context, w io.Writer) error {
			_, _ = io.WriteString(w, "partial\n")
			return errors.New("boom")
		}, "", "boom\noutput:\npartial\n"},
		{"bounded", func(ctx context.Context, _ io.Writer) error {
			if _, ok := ctx.Deadline(); !ok {
				return errors.New("no deadline")
			}
			return nil
		}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, failed := run(t, tt.fn)
			if out != tt.out {
				t.Errorf("output %q, want %q", out, tt.out)
			}
			switch {
			case tt.failed == "" && len(failed) != 0:
				t.Errorf("failed: %q", failed)
			case tt.failed != "" && (len(failed) != 1 || !strings.Contains(failed[0], tt.failed)):
				t.Errorf("failed: %q, want one failure showing %q", failed, tt.failed)
			}
		})
	}
}

func TestEqual(t *testing.T) {
	for _, tt := range []struct {
		got, want string
		fail      bool
	}{{"a\n", "a\n", false}, {"a\n", "b\n", true}} {
		f := &fakeTB{}
		Equal(f, tt.got, tt.want)
		if (len(f.failed) != 0) != tt.fail {
			t.Errorf("Equal(%q, %q): failures %q, want fail %v", tt.got, tt.want, f.failed, tt.fail)
		}
	}
}
