package schema_test

import (
	"encoding/json"
	"net"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// The zoo: argument types whose schemas are kept as golden files.

type AddArgs struct {
	A int `json:"a" jsonschema:"description=first addend"`
	B int `json:"b" jsonschema:"description=second addend" validate:"gte=0"`
}

type Primitives struct {
	Bool    bool    `json:"bool"`
	Int     int     `json:"int"`
	Int8    int8    `json:"int8"`
	Int64   int64   `json:"int64"`
	Uint    uint    `json:"uint"`
	Uint16  uint16  `json:"uint16"`
	Float32 float32 `json:"float32"`
	Float64 float64 `json:"float64"`
	String  string  `json:"string"`
	Bytes   []byte  `json:"bytes"`
	Quoted  int64   `json:"quoted,string"`
	NoTag   string
	//lint:ignore U1000 unexported fields are not arguments: the golden file shows it is skipped
	skipped string
	Ignored string `json:"-"`
}

type Address struct {
	Street string `json:"street" jsonschema:"description=street and number"`
	City   string `json:"city" validate:"required"`
	Zip    string `json:"zip,omitempty" validate:"omitempty,len=5,numeric"`
}

type Nested struct {
	Name    string   `json:"name"`
	Home    Address  `json:"home"`
	Work    *Address `json:"work,omitempty"`
	Billing *Address `json:"billing" jsonschema:"required"`
}

type Collections struct {
	Tags     []string            `json:"tags" validate:"max=5,dive,min=1"`
	Scores   []float64           `json:"scores,omitempty"`
	Pair     [2]int              `json:"pair"`
	Labels   map[string]string   `json:"labels,omitempty"`
	Counts   map[string]int      `json:"counts,omitempty" validate:"dive,keys,alpha,endkeys,gte=0"`
	ByID     map[int]string      `json:"byId,omitempty"`
	Matrix   [][]int             `json:"matrix,omitempty"`
	Groups   map[string][]string `json:"groups,omitempty"`
	Unique   []string            `json:"unique,omitempty" validate:"unique"`
	Children []Address           `json:"children,omitempty"`
}

type Pointers struct {
	Count   *int     `json:"count"`
	Ratio   *float64 `json:"ratio,omitempty"`
	Name    *string  `json:"name" validate:"required"`
	Limited *int     `json:"limited,omitempty" validate:"omitempty,lte=10"`
	MustSet *int     `json:"mustSet,omitempty" validate:"gte=1"`
}

type Times struct {
	At       time.Time  `json:"at"`
	Until    *time.Time `json:"until,omitempty"`
	Day      string     `json:"day" validate:"datetime=2006-01-02"`
	Stamp    string     `json:"stamp,omitempty" validate:"omitempty,datetime=2006-01-02T15:04:05Z07:00"`
	Optional time.Time  `json:"optional,omitzero"`
}

type Base struct {
	ID      string `json:"id" validate:"uuid"`
	Created string `json:"created,omitempty"`
}

type Meta struct {
	Source string `json:"source,omitempty"`
}

type audit struct {
	Actor string `json:"actor,omitempty"`
}

type Embedded struct {
	Base
	*Meta
	audit
	Title string `json:"title"`
	Named Base   `json:"named,omitempty"`
}

type Color string

type Enums struct {
	Color    Color    `json:"color" jsonschema:"enum=red,enum=green,enum=blue"`
	Size     string   `json:"size" validate:"oneof=small medium 'extra large'"`
	Level    int      `json:"level" validate:"oneof=1 2 3"`
	Both     string   `json:"both,omitempty" jsonschema:"enum=b,enum=c,enum=d" validate:"omitempty,oneof=c d b"`
	Channels []string `json:"channels,omitempty" validate:"dive,oneof=email sms"`
}

type Defaults struct {
	Query   string   `json:"query" jsonschema:"description=what to search for"`
	Limit   int      `json:"limit" jsonschema:"default=10,minimum=1,maximum=100"`
	Ratio   float64  `json:"ratio,omitempty" jsonschema:"default=0.5"`
	Exact   bool     `json:"exact,omitempty" jsonschema:"default=true"`
	Sort    string   `json:"sort,omitempty" jsonschema:"default=relevance,enum=relevance,enum=date"`
	Fields  []string `json:"fields,omitempty" jsonschema:"default=title,default=url"`
	Weights []int    `json:"weights,omitempty" jsonschema:"default=1,default=2"`
}

type TreeNode struct {
	Value    int         `json:"value"`
	Children []*TreeNode `json:"children,omitempty"`
}

type Forest struct {
	Name  string     `json:"name"`
	Trees []TreeNode `json:"trees"`
	Best  *TreeNode  `json:"best,omitempty"`
}

type Person struct {
	Name    string   `json:"name"`
	Friends []Person `json:"friends,omitempty" validate:"max=10"`
}

type Mirrored struct {
	Required   string            `json:"required" validate:"required"`
	ReqInt     int               `json:"reqInt" validate:"required"`
	ReqBool    bool              `json:"reqBool" validate:"required"`
	MinMax     string            `json:"minMax" validate:"min=2,max=10"`
	Len        string            `json:"len" validate:"len=3"`
	IntRange   int               `json:"intRange" validate:"gte=-5,lte=5"`
	Exclusive  float64           `json:"exclusive" validate:"gt=0,lt=1"`
	StrGt      string            `json:"strGt" validate:"gt=2,lt=8"`
	ListSize   []int             `json:"listSize" validate:"min=1,max=3"`
	MapSize    map[string]bool   `json:"mapSize" validate:"min=1,max=2"`
	Eq         string            `json:"eq" validate:"eq=yes"`
	Ne         int               `json:"ne" validate:"ne=7"`
	Email      string            `json:"email" validate:"email"`
	URL        string            `json:"url" validate:"url"`
	URI        string            `json:"uri" validate:"uri"`
	UUID       string            `json:"uuid" validate:"uuid"`
	IPv4       string            `json:"ipv4" validate:"ipv4"`
	IPv6       string            `json:"ipv6" validate:"ipv6"`
	IP         string            `json:"ip" validate:"ip"`
	Host       string            `json:"host" validate:"hostname"`
	Alpha      string            `json:"alpha" validate:"alpha"`
	AlphaNum   string            `json:"alphaNum" validate:"alphanum"`
	Numeric    string            `json:"numeric" validate:"numeric"`
	Lower      string            `json:"lower" validate:"lowercase"`
	Upper      string            `json:"upper" validate:"uppercase"`
	Prefixed   string            `json:"prefixed" validate:"startswith=v1.,endswith=(x),contains=a+b"`
	Unique     []string          `json:"unique" validate:"unique,dive,email"`
	Nested     [][]string        `json:"nested" validate:"dive,min=1,dive,uppercase"`
	Or         string            `json:"or" validate:"email|uuid"`
	CrossField string            `json:"crossField" validate:"nefield=Required"`
	Unmirrored string            `json:"unmirrored" validate:"iso3166_1_alpha2"`
	MapKeys    map[string]string `json:"mapKeys" validate:"dive,keys,startswith=x-,endkeys,required"`
}

type Misc struct {
	Any       any             `json:"any"`
	Raw       json.RawMessage `json:"raw,omitempty"`
	Value     jsontext.Value  `json:"value,omitempty"`
	IP        net.IP          `json:"ip,omitempty"`
	Nullable  string          `json:"nullable" jsonschema:"nullable"`
	Titled    string          `json:"titled,omitempty" jsonschema:"title=A title,example=x,example=y"`
	Patterned string          `json:"patterned,omitempty" jsonschema:"pattern=^[a-z]+$,minLength=2"`
}

type HeaderArgs struct {
	Region string     `json:"region" jsonschema_extras:"x-mcp-header=Region"`
	Shard  int64      `json:"shard,omitempty" jsonschema_extras:"x-mcp-header=Shard"`
	Query  string     `json:"query"`
	Target HeaderNest `json:"target"`
}

type HeaderNest struct {
	Tenant string `json:"tenant" jsonschema_extras:"x-mcp-header=Tenant-Id"`
	Debug  bool   `json:"debug,omitempty" jsonschema_extras:"x-mcp-header=Debug"`
}

type Empty struct{}

type Dept struct {
	Name  string     `json:"name"`
	Staff []Employee `json:"staff,omitempty"`
	Head  *Employee  `json:"head,omitempty"`
	Site  Address    `json:"site"`
}

type Employee struct {
	Name string `json:"name" validate:"required"`
	Dept *Dept  `json:"dept,omitempty"`
}
