package main

import (
	"fmt"
	"io"
	"strings"
)

// row is one line of the table: one measurement of every server.
type row struct {
	label  string
	format func(float64) string
	cells  map[string]samples // by server name
}

func newRow(label string, format func(float64) string) *row {
	return &row{label: label, format: format, cells: map[string]samples{}}
}

func (r *row) add(srv string, v float64) { r.cells[srv] = append(r.cells[srv], v) }

func perSecond(v float64) string { return fmt.Sprintf("%.1fk/s", v/1e3) }
func millis(v float64) string    { return fmt.Sprintf("%.1f ms", v*1e3) }
func megabytes(v float64) string { return fmt.Sprintf("%.1f MB", v/1e6) }

// printTable writes the medians of rows as a markdown table, each with
// its ratio to the floor (the first server), then the spread of each
// cell (only the rows with more than one sample).
func printTable(w io.Writer, srvs []*server, rows []*row) {
	head := []string{""}
	for _, s := range srvs {
		name := s.name
		if s.version != "" {
			name += " " + s.version
		}
		head = append(head, name)
	}
	line := func(cells []string) { fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | ")) }
	sep := make([]string, len(head))
	for i := range sep {
		sep[i] = "---"
	}

	line(head)
	line(sep)
	for _, r := range rows {
		floor := r.cells[srvs[0].name].median()
		cells := []string{r.label}
		for i, s := range srvs {
			m := r.cells[s.name].median()
			c := r.format(m)
			if i > 0 && floor > 0 {
				c += fmt.Sprintf(" (%.2f×)", m/floor)
			}
			cells = append(cells, c)
		}
		line(cells)
	}

	fmt.Fprintln(w, "\nSpread of each cell: interquartile range / median, of n samples:")
	fmt.Fprintln(w)
	line(head)
	line(sep)
	for _, r := range rows {
		if len(r.cells[srvs[0].name]) < 2 {
			continue
		}
		cells := []string{r.label}
		for _, s := range srvs {
			cells = append(cells, fmt.Sprintf("%.0f%% (n=%d)", 100*r.cells[s.name].spread(), len(r.cells[s.name])))
		}
		line(cells)
	}
}
