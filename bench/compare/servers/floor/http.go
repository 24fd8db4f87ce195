package main

import (
	"encoding/json"
	"net/http"
)

// serveHTTP serves the tools at /mcp on addr: each POST carries one
// request, answered as application/json; a notification gets 202.
func serveHTTP(addr string, list json.RawMessage) error {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		var req request
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "Parse error", http.StatusBadRequest)
			return
		}
		resp := answer(&req, list)
		if resp == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp) // an error means the client went away
	})
	return http.ListenAndServe(addr, mux)
}
