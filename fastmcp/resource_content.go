package fastmcp

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/gabriel-vasile/mimetype"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/fastmcp-go/fastmcp/protocol"
)

// contentsKind says how a resource handler's result becomes resource
// contents; it is decided once at registration.
type contentsKind uint8

const (
	contentsText    contentsKind = iota // a string: text
	contentsBlob                        // []byte: a blob
	contentsOne                         // ResourceContents or *ResourceContents: as given
	contentsList                        // []ResourceContents or []*ResourceContents: as given
	contentsJSON                        // any other JSON value: its JSON as text
	contentsDynamic                     // an interface type: decided per call
)

var (
	resourceContentsType     = reflect.TypeFor[ResourceContents]()
	resourceContentsPtrType  = reflect.TypeFor[*ResourceContents]()
	resourceContentsListType = reflect.TypeFor[[]ResourceContents]()
	resourceContentsPtrsType = reflect.TypeFor[[]*ResourceContents]()
	jsontextValueType        = reflect.TypeFor[jsontext.Value]()
	rawMessageType           = reflect.TypeFor[json.RawMessage]()
)

// classifyContents decides how results of type t are sent.
func classifyContents(t reflect.Type) contentsKind {
	switch {
	case t == resourceContentsType || t == resourceContentsPtrType:
		return contentsOne
	case t == resourceContentsListType || t == resourceContentsPtrsType:
		return contentsList
	case t == jsontextValueType || t == rawMessageType:
		return contentsJSON
	case t.Kind() == reflect.String:
		return contentsText
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		return contentsBlob
	case t.Kind() == reflect.Interface:
		return contentsDynamic
	}
	return contentsJSON
}

// listedMIMEType is the MIME type a listing shows: the configured one, or
// the one every read of a handler of that result kind has.
func listedMIMEType(configured string, kind contentsKind) string {
	switch {
	case configured != "":
		return configured
	case kind == contentsText:
		return "text/plain"
	case kind == contentsJSON:
		return "application/json"
	}
	return ""
}

// toContents turns a resource handler's result into resource contents.
func toContents(kind contentsKind, v reflect.Value, uri, mimeType string) ([]ResourceContents, error) {
	switch kind {
	case contentsText:
		return []ResourceContents{{URI: uri, MIMEType: cmp.Or(mimeType, "text/plain"), Text: v.String()}}, nil
	case contentsBlob:
		data := v.Bytes()
		if data == nil {
			data = []byte{}
		}
		switch {
		case mimeType != "":
		case len(data) == 0:
			mimeType = "application/octet-stream"
		default:
			mimeType = mimetype.Detect(data).String()
		}
		return []ResourceContents{{URI: uri, MIMEType: mimeType, Blob: data}}, nil
	case contentsOne:
		if isNilValue(v) {
			return nil, fmt.Errorf("%w: the resource handler for %s returned nil contents", protocol.ErrInternal, uri)
		}
		rc := reflect.Indirect(v).Interface().(ResourceContents)
		return []ResourceContents{fillContents(rc, uri, mimeType)}, nil
	case contentsList:
		var list []ResourceContents
		switch l := v.Interface().(type) {
		case []ResourceContents:
			list = make([]ResourceContents, 0, len(l))
			for _, rc := range l {
				list = append(list, fillContents(rc, uri, mimeType))
			}
		case []*ResourceContents:
			list = make([]ResourceContents, 0, len(l))
			for _, rc := range l {
				if rc != nil {
					list = append(list, fillContents(*rc, uri, mimeType))
				}
			}
		}
		return list, nil
	case contentsDynamic:
		if isNilValue(v) {
			return nil, fmt.Errorf("%w: the resource handler for %s returned nil", protocol.ErrInternal, uri)
		}
		v = v.Elem()
		k := classifyContents(v.Type())
		if k == contentsDynamic {
			k = contentsJSON
		}
		return toContents(k, v, uri, mimeType)
	default:
		b, err := protocol.Marshal(v.Interface())
		if err != nil {
			return nil, fmt.Errorf("fastmcp: encoding the contents of %s: %w", uri, err)
		}
		return []ResourceContents{{URI: uri, MIMEType: cmp.Or(mimeType, "application/json"), Text: string(b)}}, nil
	}
}

// fillContents sets a handler-built value's missing URI and MIME type.
func fillContents(rc ResourceContents, uri, mimeType string) ResourceContents {
	if rc.URI == "" {
		rc.URI = uri
	}
	if rc.MIMEType == "" {
		rc.MIMEType = mimeType
	}
	return rc
}
