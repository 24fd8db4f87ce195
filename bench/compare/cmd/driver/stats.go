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

// spread returns the interquartile range relative to the median: the
// width of the middle half of the samples, which a few disturbed samples
// on a busy machine do not widen.
func (s samples) spread() float64 {
	m := s.median()
	if m == 0 || len(s) < 2 {
		return 0
	}
	c := slices.Clone(s)
	slices.Sort(c)
	q := func(p float64) float64 { // linear interpolation between ranks
		x := p * float64(len(c)-1)
		i := int(x)
		if i+1 >= len(c) {
			return c[i]
		}
		return c[i] + (x-float64(i))*(c[i+1]-c[i])
	}
	return (q(0.75) - q(0.25)) / m
}
