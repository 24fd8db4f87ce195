package main

import (
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// moduleDir returns the directory of the comparison's module, which the
// driver must run in (make bench-compare does).
func moduleDir(goCmd string) (string, error) {
	out, err := exec.Command(goCmd, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if filepath.Base(filepath.Dir(gomod)) != "compare" {
		return "", fmt.Errorf("run the driver in bench/compare (go.mod here is %q)", gomod)
	}
	return filepath.Dir(gomod), nil
}

// build builds srv into dir twice, with the default flags (the binary
// that is run) and with -ldflags=-s -w (for its size only).
func build(ctx context.Context, goCmd, modDir, dir string, srv *server) error {
	srv.bin = filepath.Join(dir, srv.name)
	srv.stripped = srv.bin + "-stripped"
	for _, b := range []struct {
		out  string
		args []string
		size *int64
	}{
		{srv.bin, nil, &srv.size},
		{srv.stripped, []string{"-ldflags=-s -w"}, &srv.sizeS},
	} {
		args := append(append([]string{"build", "-o", b.out}, b.args...), srv.dir)
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Dir = modDir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out)
		}
		fi, err := os.Stat(b.out)
		if err != nil {
			return err
		}
		*b.size = fi.Size()
	}
	if srv.dep != "" {
		info, err := buildinfo.ReadFile(srv.bin)
		if err != nil {
			return fmt.Errorf("%s: %w", srv.bin, err)
		}
		for _, d := range info.Deps {
			if d.Path == srv.dep {
				srv.version = d.Version
			}
		}
	}
	return nil
}
