package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"slices"
	"strconv"
	"sync"
)

// A demo of the API the Petstore document describes, in memory, so that
// the example runs without a network: GET and POST /pets, GET and DELETE
// /pets/{petId}.

type pet struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
}

type store struct {
	mu   sync.Mutex
	pets []pet
}

func (st *store) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /pets", func(w http.ResponseWriter, r *http.Request) {
		limit := 100
		if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l >= 0 && l < limit {
			limit = l
		}
		st.mu.Lock()
		out := slices.Clone(st.pets[:min(limit, len(st.pets))])
		st.mu.Unlock()
		writeJSON(w, http.StatusOK, out)
	})
	mux.HandleFunc("POST /pets", func(w http.ResponseWriter, r *http.Request) {
		var p pet
		if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&p); err != nil || p.Name == "" {
			writeJSON(w, http.StatusBadRequest, map[string]any{"code": 400, "message": "a pet needs an id and a name"})
			return
		}
		st.mu.Lock()
		st.pets = append(st.pets, p)
		st.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	})
	mux.HandleFunc("GET /pets/{petId}", func(w http.ResponseWriter, r *http.Request) {
		if p, ok := st.find(r.PathValue("petId")); ok {
			writeJSON(w, http.StatusOK, p)
			return
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 404, "message": "no such pet"})
	})
	mux.HandleFunc("DELETE /pets/{petId}", func(w http.ResponseWriter, r *http.Request) {
		st.mu.Lock()
		defer st.mu.Unlock()
		st.pets = slices.DeleteFunc(st.pets, func(p pet) bool { return strconv.FormatInt(p.ID, 10) == r.PathValue("petId") })
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

func (st *store) find(id string) (pet, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, p := range st.pets {
		if strconv.FormatInt(p.ID, 10) == id {
			return p, true
		}
	}
	return pet{}, false
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// serveDemoAPI serves the demo API on a free port of 127.0.0.1 and returns
// its base URL and how to stop it.
func serveDemoAPI() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	st := &store{pets: []pet{{1, "Tom", "cat"}, {2, "Rex", "dog"}}}
	srv := &http.Server{Handler: st.routes()}
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { srv.Shutdown(context.Background()); <-done }, nil
}
