package protocol

// parsedMeta is the outcome of parsing a request's _meta.
type parsedMeta struct {
	meta RequestMeta
	err  error
}

// noMeta is the outcome for params without _meta entries.
var noMeta = &parsedMeta{}

// Meta returns the parsed _meta of the request's params, as
// [ParseRequestMeta] gives it. The params are parsed on the first call
// only and the outcome kept with the request, so the transport (which
// routes a stateless HTTP request by its _meta), the session engine and the
// handler share one parse. Set Params before the first call: later changes
// are not seen. Like the rest of a Request, it is not safe for concurrent
// use until its first call has returned.
func (r *Request) Meta() (RequestMeta, error) {
	if r.meta == nil {
		m, err := ParseRequestMeta(r.Params)
		if err == nil && m.isZero() {
			r.meta = noMeta // shared, read-only: no allocation for the common case
		} else {
			r.meta = &parsedMeta{meta: m, err: err}
		}
	}
	return r.meta.meta, r.meta.err
}

// isZero reports whether m has no entry at all.
func (m *RequestMeta) isZero() bool {
	return !m.ProgressToken.IsValid() && m.ProtocolVersion == "" && m.ClientInfo == nil &&
		m.ClientCapabilities == nil && m.LogLevel == "" && m.Other == nil
}
