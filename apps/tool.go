package apps

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/fastmcp-go/fastmcp/fastmcp"
	"github.com/fastmcp-go/fastmcp/protocol"
)

// WithView gives a tool an interactive view: hosts that render views show
// view beside the tool's result, and the view gets the tool's arguments
// and result and may call the server's tools. The view is registered as a
// resource with the tool (once, however many tools share it), removed with
// the last tool that has it, and the server declares the extension. The
// server keeps a copy of view, made at registration.
//
// Clients that do not render views get the tool as if it had none: no
// _meta.ui, and the result unchanged, so the tool's text content must
// still say what the view shows.
//
// Registration fails when view is not valid (see View.Validate), when
// another view, or a resource that is not a view, has its URI, or when the
// tool's Meta already has a "ui" key.
func WithView(view *View) fastmcp.ToolOption {
	return toolOption(func(m *ToolMeta, ui *fastmcp.ToolUI) error {
		if err := view.Validate(); err != nil {
			return fmt.Errorf("WithView: %w", err)
		}
		cp, err := cloneView(view)
		if err != nil {
			return fmt.Errorf("WithView: %w", err)
		}
		m.ResourceURI = cp.URI
		ui.View = &fastmcp.ToolView{URI: cp.URI, Name: cp.Name, Description: cp.Description, HTML: cp.HTML}
		if !reflect.ValueOf(cp.Meta).IsZero() {
			ui.View.Meta = protocol.Meta{MetaKey: cp.Meta}
		}
		return nil
	})
}

// AppOnly makes a tool callable by views only (visibility ["app"]): hosts
// leave it out of the model's tool list, and clients that do not render
// views neither see nor call it. Use it for what a view's buttons do.
func AppOnly() fastmcp.ToolOption {
	return toolOption(func(m *ToolMeta, ui *fastmcp.ToolUI) error {
		if !m.VisibleTo(VisibilityApp) {
			return errVisibility
		}
		m.Visibility, ui.AppOnly = []Visibility{VisibilityApp}, true
		return nil
	})
}

// ModelOnly makes a tool callable by the model but not by views
// (visibility ["model"]); hosts refuse a view's call to it.
func ModelOnly() fastmcp.ToolOption {
	return toolOption(func(m *ToolMeta, ui *fastmcp.ToolUI) error {
		if !m.VisibleTo(VisibilityModel) {
			return errVisibility
		}
		m.Visibility = []Visibility{VisibilityModel}
		return nil
	})
}

var errVisibility = errors.New("AppOnly and ModelOnly exclude each other: give one, or neither for a tool both may call")

// toolOption is an option of the extension: set changes the tool's
// _meta.ui m (and ui), which is then published under MetaKey, with the
// view's URI under the flat key older hosts read.
func toolOption(set func(m *ToolMeta, ui *fastmcp.ToolUI) error) fastmcp.ToolOption {
	return fastmcp.WithToolUI(func(ui *fastmcp.ToolUI, _ string, meta protocol.Meta) error {
		var m ToolMeta
		if cur, ok := ui.Meta[MetaKey]; ok {
			if m, ok = cur.(ToolMeta); !ok {
				return fmt.Errorf("_meta.ui is a %T, set by another WithToolUI option: use only package apps's options for it", cur)
			}
		} else if _, taken := meta[MetaKey]; taken {
			return fmt.Errorf("the tool's Meta has a %q key: use apps.WithView, AppOnly or ModelOnly instead", MetaKey)
		}
		if err := set(&m, ui); err != nil {
			return err
		}
		if ui.Meta == nil {
			ui.Meta = protocol.Meta{}
		}
		ui.Meta[MetaKey] = m
		if m.ResourceURI != "" {
			ui.Meta[LegacyResourceURIMetaKey] = m.ResourceURI
		}
		return nil
	})
}

// cloneView returns a deep copy of v (its Meta holds pointers and
// slices), so that what the server serves cannot change after
// registration.
func cloneView(v *View) (*View, error) {
	cp := *v
	b, err := json.Marshal(v.Meta)
	if err != nil {
		return nil, err
	}
	cp.Meta = ViewMeta{}
	if err := json.Unmarshal(b, &cp.Meta); err != nil {
		return nil, err
	}
	return &cp, nil
}
