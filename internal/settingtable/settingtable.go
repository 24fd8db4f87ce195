// Package settingtable resolves a struct of settings from one table with a
// row per setting: each setting comes from an option the program gave, a
// command-line flag, an environment variable, or its default, in that
// order of precedence.
//
// Its one job is that resolution, generic over P, a pointer to the
// settings struct: the row builders for the kinds of setting (text, bool,
// list, limit, size), the flags' registration, the variables' names, and
// errors that name the setting, where its value came from and what it
// accepts. P is a pointer, not the struct, so that the generic code has
// one shape: instantiated with a struct, each of its closures would carry
// a symbol name spelling the whole struct out (72 KB more in a minimal
// server's binary).
// Package fastmcp keeps the struct (fastmcp.Settings), its options, the
// rows of its table and their checks.
package settingtable

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// NoLimit is the text a limit's flag or variable takes for "no limit"
// (-max-sessions=none); an option takes a negative value for it.
const NoLimit = "none"

// Given records which settings the options gave, by their rows' names.
// A Check may read other names the program records in it.
type Given map[string]bool

// A Row is one setting of a table over the settings struct P points to:
// how it
// resolves from its option, its flag or variable, or its default.
type Row[P any] struct {
	// Name is the flag's name; the variable is the table's EnvPrefix and
	// the name in upper case, - as _.
	Name string
	// Option is the option's name, for errors about a value it gave.
	Option string
	// Parse sets the setting from the text of a flag or variable, or
	// returns what the setting accepts.
	Parse func(s P, v string) (accepts string)
	// Def sets the default before the flag or variable is parsed; nil:
	// the zero value. Keep normalises a value an option gave; nil: kept
	// as is.
	Def, Keep func(P)
	// Check, run once every row is resolved, returns what is wrong with
	// the value (it may also fill in a value derived from others), naming
	// what the setting accepts; nil: no check.
	Check func(s P, given Given) (accepts string)
	// Value returns the setting as text, for an error about a value an
	// option gave (nil for settings that are not text).
	Value func(P) string
	// Secret leaves the value out of errors (it may hold a password).
	Secret bool
	// Usage and Default describe the flag, its default in words.
	Usage, Default string
}

// Doc returns r with the flag's usage and its default in words.
func (r Row[P]) Doc(usage, dflt string) Row[P] {
	r.Usage, r.Default = usage, dflt
	return r
}

// WithCheck returns r with check as its Check.
func (r Row[P]) WithCheck(check func(P, Given) string) Row[P] {
	r.Check = check
	return r
}

// Text is a setting taken as is.
func Text[P any](name, option string, field func(P) *string) Row[P] {
	return Row[P]{
		Name: name, Option: option,
		Parse: func(s P, v string) string { *field(s) = v; return "" },
		Value: func(s P) string { return *field(s) },
	}
}

// Bool is a setting that takes what strconv.ParseBool accepts.
func Bool[P any](name, option string, field func(P) *bool) Row[P] {
	return Row[P]{Name: name, Option: option, Parse: func(s P, v string) string {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return "use true or false"
		}
		*field(s) = b
		return ""
	}}
}

// List is a setting that takes a comma-separated list; blank items are
// dropped.
func List[P any](name, option string, field func(P) *[]string) Row[P] {
	return Row[P]{Name: name, Option: option, Parse: func(s P, v string) string {
		var items []string
		for item := range strings.SplitSeq(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				items = append(items, item)
			}
		}
		*field(s) = items
		return ""
	}}
}

// Limit is a limit in time or in number: an option gives a positive
// value, or a negative one for no limit (0 leaves it to the flag, the
// variable or the default); a flag or variable a positive value or
// NoLimit. Resolved, no limit is -1. example is a valid value, for errors;
// parse reads the text.
func Limit[P any, T int | time.Duration](name, option string, field func(P) *T, def T, example string, parse func(string) (T, error)) Row[P] {
	return Row[P]{
		Name: name, Option: option,
		Parse: func(s P, v string) string {
			if v == NoLimit {
				*field(s) = -1
				return ""
			}
			n, err := parse(v)
			if err != nil || n <= 0 {
				return "use a positive value such as " + example + ", or " + NoLimit + " for no limit"
			}
			*field(s) = n
			return ""
		},
		Def: func(s P) { *field(s) = def },
		Keep: func(s P) {
			if *field(s) < 0 {
				*field(s) = -1
			}
		},
	}
}

// Size is a positive number of bytes, always bounded.
func Size[P any, T int | int64](name, option string, field func(P) *T, def T) Row[P] {
	return Row[P]{
		Name: name, Option: option,
		Parse: func(s P, v string) string {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n <= 0 {
				return "use a positive number of bytes, such as 65536"
			}
			*field(s) = T(n)
			return ""
		},
		Def: func(s P) { *field(s) = def },
	}
}

// Duration reads a duration, as Limit's parse.
func Duration(v string) (time.Duration, error) { return time.ParseDuration(v) }

// A Table is the rows of one settings struct P points to, in the order its
// documentation lists them. A Table is not changed once built, and is
// safe for concurrent use.
type Table[P any] struct {
	// EnvPrefix begins every variable's name, such as "FASTMCP_".
	EnvPrefix string
	// ErrPrefix begins every error's text, such as "fastmcp: ".
	ErrPrefix string
	Rows      []Row[P]
}

// Env returns the environment variable of r.
func (t *Table[P]) Env(r *Row[P]) string {
	return t.EnvPrefix + strings.ToUpper(strings.ReplaceAll(r.Name, "-", "_"))
}

// Register defines a string flag on fs for every row; its usage names the
// variable and the default. Resolve reads the flags fs parsed.
func (t *Table[P]) Register(fs *flag.FlagSet) {
	for i := range t.Rows {
		r := &t.Rows[i]
		env := t.Env(r)
		if r.Default != "" {
			env += ", default " + r.Default
		}
		fs.String(r.Name, "", r.Usage+" (env "+env+")")
	}
}

// Resolve resolves every row of out, which holds the values the options
// gave, in place: the option's value when given says an option gave it,
// else a flag's (when fs is not nil and was parsed), else a non-empty
// variable's (read with lookup, such as os.LookupEnv), else the default;
// then, once all are resolved, each row's Check. The error names each
// invalid setting, where it came from and what it accepts.
func (t *Table[P]) Resolve(out P, given Given, fs *flag.FlagSet, lookup func(string) (string, bool)) error {
	flags := map[string]string{}
	if fs != nil && fs.Parsed() {
		fs.Visit(func(f *flag.Flag) { flags[f.Name] = f.Value.String() })
	}
	var errs []error
	type source struct{ from, text string } // text: "" when the option gave the value
	sources := make([]source, len(t.Rows))
	for i := range t.Rows {
		r := &t.Rows[i]
		sources[i].from = "option " + r.Option
		if given[r.Name] {
			if r.Keep != nil {
				r.Keep(out)
			}
			continue
		}
		if r.Def != nil {
			r.Def(out)
		}
		v, from, ok := t.raw(r, flags, lookup)
		if !ok {
			continue
		}
		sources[i] = source{from, v}
		if accepts := r.Parse(out, v); accepts != "" {
			errs = append(errs, t.invalid(r, from, v, accepts))
		}
	}
	for i := range t.Rows {
		r, src := &t.Rows[i], sources[i]
		if r.Check == nil {
			continue
		}
		if accepts := r.Check(out, given); accepts != "" {
			if src.text == "" && r.Value != nil {
				src.text = r.Value(out)
			}
			errs = append(errs, t.invalid(r, src.from, src.text, accepts))
		}
	}
	return errors.Join(errs...)
}

// From returns where the value of the row named name comes from, as
// Resolve's errors name it: "option X" when an option gave it, "flag -x"
// when fs parsed its flag, the variable's name when lookup finds it not
// empty; "" when none gave it (the default), or no row is named name.
func (t *Table[P]) From(name string, given Given, fs *flag.FlagSet, lookup func(string) (string, bool)) string {
	for i := range t.Rows {
		r := &t.Rows[i]
		if r.Name != name {
			continue
		}
		if given[name] {
			return "option " + r.Option
		}
		flags := map[string]string{}
		if fs != nil && fs.Parsed() {
			fs.Visit(func(f *flag.Flag) { flags[f.Name] = f.Value.String() })
		}
		_, from, _ := t.raw(r, flags, lookup)
		return from
	}
	return ""
}

// raw returns the text of r's flag, when it was given, else of its
// variable, when it is not empty, and where it came from.
func (t *Table[P]) raw(r *Row[P], flags map[string]string, lookup func(string) (string, bool)) (v, from string, ok bool) {
	if v, ok := flags[r.Name]; ok {
		return v, "flag -" + r.Name, true
	}
	if v, ok := lookup(t.Env(r)); ok && v != "" {
		return v, t.Env(r), true
	}
	return "", "", false
}

// invalid says which setting is invalid, where it came from, and what it
// accepts; a secret setting's value is left out.
func (t *Table[P]) invalid(r *Row[P], from, v, accepts string) error {
	if r.Secret {
		return fmt.Errorf("%ssetting %s is invalid: %s", t.ErrPrefix, from, accepts)
	}
	return fmt.Errorf("%ssetting %s=%q is invalid: %s", t.ErrPrefix, from, v, accepts)
}
