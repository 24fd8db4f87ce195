//go:build !linux

package main

import (
	"os"
	"syscall"
)

// sysProcAttr has nothing to add outside Linux.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// maxRSS is not measured outside Linux.
func maxRSS(*os.ProcessState) int64 { return 0 }
