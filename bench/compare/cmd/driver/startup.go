package main

import (
	"time"
)

// startup starts srv with the 100 start-up tools and returns the time
// from starting the process to reading its answer to initialize. With
// verify set it then checks that tools/list lists the 101 tools.
func startup(srv *server, verify bool) (time.Duration, error) {
	t0 := time.Now()
	p, err := start(srv.name, srv.bin, true, "-tools100")
	if err != nil {
		return 0, err
	}
	defer p.stop()
	c := newStdioClient(p)
	resp, err := c.roundTrip(initRequest(1))
	if err != nil {
		return 0, err
	}
	d := time.Since(t0)
	if _, err := checkInit(resp, 1); err != nil {
		return 0, p.failed(err)
	}
	if verify {
		if err := c.send(initializedNote); err != nil {
			return 0, err
		}
		resp, err := c.roundTrip(listRequest(2))
		if err != nil {
			return 0, err
		}
		if err := checkList(resp, 2, 101); err != nil {
			return 0, p.failed(err)
		}
	}
	return d, nil
}
