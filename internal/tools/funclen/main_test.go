package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReportsOnlyUnexplained runs the tool on testdata/pkg: the long
// function and method without a reason are listed (and the exit status is
// 1), the one whose doc comment says "It is long because" and the short one
// are not.
func TestReportsOnlyUnexplained(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"testdata/pkg"}, &out, &errOut)
	if code != 1 {
		t.Fatalf("exit status %d, want 1; stderr: %s", code, errOut.String())
	}
	got := out.String()
	for _, want := range []string{"  89 testdata/pkg/pkg.go:6 Unexplained\n", "  89 testdata/pkg/pkg.go:192 T.Method\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"Explained\n", "Short"} {
		if strings.Contains(strings.ReplaceAll(got, "Unexplained", ""), not) {
			t.Errorf("output lists %q:\n%s", not, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 2 {
		t.Errorf("%d lines, want 2:\n%s", n, got)
	}
}

// TestLimitFlag: with -max above the longest function nothing is reported
// and the exit status is 0.
func TestLimitFlag(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-max", "100", "testdata/pkg"}, &out, &errOut); code != 0 || out.Len() != 0 {
		t.Fatalf("exit status %d, output %q, want 0 and nothing", code, out.String())
	}
}

// TestSkipsTestdata: walking the tool's own directory skips testdata/ (no
// library code), so nothing is reported.
func TestSkipsTestdata(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"."}, &out, &errOut); code != 0 {
		t.Fatalf("exit status %d, output %q", code, out.String())
	}
}
