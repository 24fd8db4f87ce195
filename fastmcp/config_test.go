package fastmcp_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/fastmcp-go/fastmcp/fastmcp"
)

// TestHTTPConfigHoldsNoSetting checks that the HTTPEndpoints option cannot
// set, behind the Settings' back, what a setting or another option sets:
// no field of HTTPConfig (or of the structs in it) bears the name of a
// Settings field, or of the Logger and HTTPPrincipal options' targets.
func TestHTTPConfigHoldsNoSetting(t *testing.T) {
	settings := map[string]bool{"Logger": true, "Principal": true, "DisableHostCheck": true}
	st := reflect.TypeFor[fastmcp.Settings]()
	for i := range st.NumField() {
		settings[st.Field(i).Name] = true
	}
	var walk func(path string, typ reflect.Type)
	walk = func(path string, typ reflect.Type) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if settings[f.Name] {
				t.Errorf("HTTPConfig%s.%s duplicates a setting: use its option, flag or FASTMCP_* variable", path, f.Name)
			}
			if f.Type.Kind() == reflect.Struct {
				walk(path+"."+f.Name, f.Type)
			}
		}
	}
	walk("", reflect.TypeFor[fastmcp.HTTPConfig]())
}

// TestListenerOption: the Listener option makes the transport http unless
// one is set, a transport of stdio beside it is an error naming where it
// came from, and Run then closes the listener without serving.
func TestListenerOption(t *testing.T) {
	t.Setenv("FASTMCP_TRANSPORT", "")
	ln := listenLoopback(t)
	set, err := newServer(fastmcp.Listener(ln)).Settings()
	if err != nil || set.Transport != "http" {
		t.Fatalf("Settings = %+v, %v; want the http transport", set, err)
	}
	t.Setenv("FASTMCP_TRANSPORT", "stdio")
	err = newServer(fastmcp.Listener(ln)).Run(ctxT(t))
	if err == nil || !strings.Contains(err.Error(), `setting FASTMCP_TRANSPORT="stdio" is invalid: the Listener option serves HTTP`) {
		t.Fatalf("Run = %v, want an error naming FASTMCP_TRANSPORT", err)
	}
	if _, err := ln.Accept(); err == nil {
		t.Error("Run left the listener open")
	}
}
