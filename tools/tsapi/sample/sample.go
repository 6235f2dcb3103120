// Package sample holds the Go types tsapi's tests generate TypeScript
// from: one for each rule of encoding/json the generator follows. Its
// constants are read from this source, as the generator reads a real
// package's.
package sample

import (
	"encoding/json"
	"time"

	"sitesift/app/crawling"
)

// Level is a named string type with constants: a union.
type Level string

// The levels; notLevel is untyped, no Level.
const (
	LevelLow  Level = "low"
	LevelHigh       = Level("high")
	notLevel        = "untyped"
)

// Count is a named number type.
type Count int

type inner struct {
	Deep string `json:"deep"`
	ID   int64  `json:"id"`
	Tie  string `json:"tie"`
}

// Base is embedded: its fields are promoted.
type Base struct {
	ID  int64  `json:"id"`
	Tie string `json:"tie"`
}

// Sample has a field of each kind.
type Sample struct {
	Base                           // promoted: id and tie, which tie with inner's and are left out
	*inner                         // promoted through a pointer: optional; deep hidden by Deep
	Deep    string                 `json:"deep"`
	Name    string                 `json:"name"`
	Plain   int                    // no tag: its Go name
	Skipped string                 `json:"-"`
	Dash    string                 `json:"-,"`
	Opt     string                 `json:"opt,omitempty"`
	Zero    int                    `json:"zero,omitzero"`
	Ptr     *float64               `json:"ptr"`
	OptPtr  *float64               `json:"opt_ptr,omitempty"`
	List    []string               `json:"list"`
	OptList []string               `json:"opt_list,omitempty"`
	Bytes   []byte                 `json:"bytes"`
	Grid    [2][]int               `json:"grid"`
	Counts  map[string]Count       `json:"counts"`
	At      time.Time              `json:"at"`
	When    *time.Time             `json:"when,omitempty"`
	Level   Level                  `json:"level"`
	Quoted  int64                  `json:"quoted,string"`
	Any     any                    `json:"any"`
	Raw     json.RawMessage        `json:"raw"`
	Nested  struct{ X bool }       `json:"nested"`
	Row     crawling.RecrawlCounts `json:"row"`
	private int
	Tagged  inner `json:"tagged"` // tagged: a field, not promoted
}

// New is a Sample with its pointers set, for the encoder to write.
func New() Sample {
	x := 1.5
	_ = notLevel
	return Sample{inner: &inner{}, Ptr: &x, private: 1}
}
