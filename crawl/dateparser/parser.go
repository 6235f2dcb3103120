package dateparser

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// ParserType is a kind of date a Parser looks for.
type ParserType int

// The kinds of date; this parser reads absolute dates whatever it is given.
const (
	Timestamp ParserType = iota
	NegativeTimestamp
	RelativeTime
	CustomFormat
	AbsoluteTime
	NoSpacesTime
)

// PreferredDateSource says where an incomplete date is placed; this parser
// reads complete dates only.
type PreferredDateSource int

// The sources of an incomplete date.
const (
	CurrentPeriod PreferredDateSource = iota
	Past
	Future
)

// Configuration sets up a Parse.
type Configuration struct {
	PreferredDateSource PreferredDateSource
	// StrictParsing asks for a day, a month and a year; this parser always
	// does.
	StrictParsing bool
}

// Parser reads dates.
type Parser struct {
	ParserTypes []ParserType
}

// Date is a date read.
type Date struct {
	Time time.Time
}

// ErrNoDate is returned for a text in which no complete date was found.
var ErrNoDate = errors.New("dateparser: no complete date")

// Parse reads the first complete date of s: day, month and year, in the
// orders year-month-day, day-month-year, or month-day-year when the month is
// a name; formats are not used.
func (p *Parser) Parse(cfg *Configuration, s string, formats ...string) (Date, error) {
	tokens := tokenize(s)
	var nums []int   // numbers in order
	var digits []int // their number of digits
	month := 0       // a month named
	monthAt := -1    // its place among nums
	for _, t := range tokens {
		if n, err := strconv.Atoi(t); err == nil {
			nums, digits = append(nums, n), append(digits, len(t))
			continue
		}
		if m := monthOf(t); m > 0 && month == 0 {
			month, monthAt = m, len(nums)
		}
	}
	var y, m, d int
	switch {
	case month > 0 && len(nums) >= 2:
		m = month
		y, d = pickYearDay(nums, digits, monthAt)
	case len(nums) >= 3 && digits[0] == 4:
		y, m, d = nums[0], nums[1], nums[2]
	case len(nums) >= 3 && digits[2] == 4:
		d, m, y = nums[0], nums[1], nums[2]
		if m > 12 && d <= 12 {
			d, m = m, d
		}
	}
	if y < 100 || m < 1 || m > 12 || d < 1 || d > 31 {
		return Date{}, ErrNoDate
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return Date{}, ErrNoDate // 31 April
	}
	return Date{Time: t}, nil
}

// pickYearDay chooses the year (four digits) and the day among the numbers
// around a month name at monthAt: the day next to the name, before it
// ("2 March 2021") or after it ("March 2, 2021").
func pickYearDay(nums, digits []int, monthAt int) (y, d int) {
	yi := -1
	for i := range nums {
		if digits[i] == 4 {
			yi = i
			break
		}
	}
	if yi < 0 {
		return 0, 0
	}
	for _, i := range []int{monthAt - 1, monthAt} {
		if i >= 0 && i < len(nums) && i != yi && digits[i] <= 2 {
			return nums[yi], nums[i]
		}
	}
	return nums[yi], 0
}

// tokenize splits s into lower-case runs of letters and runs of digits; an
// ordinal's ending ("1st", "2nd", "3.") stays with nothing.
func tokenize(s string) []string {
	var out []string
	var b strings.Builder
	kind := 0 // 1 letters, 2 digits
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
		kind = 0
	}
	for _, r := range strings.ToLower(s) {
		k := 0
		switch {
		case unicode.IsDigit(r):
			k = 2
		case unicode.IsLetter(r):
			k = 1
		}
		if k != kind {
			flush()
		}
		if k != 0 {
			b.WriteRune(r)
			kind = k
		}
	}
	flush()
	return out
}

var (
	monthsOnce sync.Once
	months     map[string]int
)

// monthOf returns the month a word names (1–12), 0 for none. Its table is
// built the first time it is asked.
func monthOf(w string) int {
	monthsOnce.Do(func() {
		months = map[string]int{}
		for _, names := range monthNames {
			for i, n := range strings.Fields(names) {
				months[n] = i + 1
				if r := []rune(n); len(r) > 3 {
					if _, taken := months[string(r[:3])]; !taken {
						months[string(r[:3])] = i + 1
					}
				}
			}
		}
	})
	return months[w]
}

// monthNames are the months of the languages read, January to December.
var monthNames = []string{
	"january february march april may june july august september october november december",
	"janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
	"januar februar märz april mai juni juli august september oktober november dezember",
	"enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",
	"gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",
	"janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",
	"januari februari maart april mei juni juli augustus september oktober november december",
	"styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik listopad grudzień",
	"stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
	"januari februari mars april maj juni juli augusti september oktober november december",
	"января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
	"январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",
}
