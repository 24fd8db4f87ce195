package main

import (
	"slices"
)

// samples are the measurements of one cell of the table.
type samples []float64

// median returns the median, or 0 for no samples.
func (s samples) median() float64 {
	if len(s) == 0 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

// spread returns (max - min) / median, the relative width of the samples.
func (s samples) spread() float64 {
	m := s.median()
	if m == 0 {
		return 0
	}
	return (slices.Max(s) - slices.Min(s)) / m
}
