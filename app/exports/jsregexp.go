package exports

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
)

// JSRegExp returns the source of a JavaScript RegExp, compiled with no flag
// (as browsertrix-crawler compiles its include and exclude options, with
// new RegExp(source)), that matches what the Go (RE2) expression re
// matches, or an error naming re when that meaning cannot be kept.
//
// The expression is translated from its parsed form, not textually, so
// that everything RE2 spells its own way comes out in JavaScript's
// spelling: a flag group such as a leading (?i) (JavaScript has no inline
// flags and browsertrix-crawler takes none) becomes case-insensitive
// classes ([Pp][Dd][Ff]); \A becomes ^ and \z becomes $ (JavaScript reads
// \A and \z as the letters A and z); (?m)^ and $ become look-arounds on
// "\n"; (?s). becomes [\s\S]; . becomes [^\n] (JavaScript's . also stops
// at "\r", U+2028 and U+2029, RE2's only at "\n"); POSIX and Unicode
// classes become their ranges.
//
// JavaScript without the u flag matches UTF-16 code units, RE2 matches
// code points. browsertrix-crawler tests URLs as the WHATWG URL parser
// writes them, in ASCII (anything else is percent-encoded or punycode),
// where the two agree; a character class that ends at the last code point
// (a negated class) is cut at U+FFFF, which keeps its meaning there. An
// expression that names a character beyond U+FFFF is refused: without the
// u flag JavaScript cannot say it as one character.
func JSRegExp(re string) (string, error) {
	t, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("expression %q is not a valid RE2 expression: %w", re, err)
	}
	var b strings.Builder
	if err := writeJS(&b, t); err != nil {
		return "", fmt.Errorf("expression %q has no JavaScript RegExp of the same meaning: %w", re, err)
	}
	return b.String(), nil
}

// writeJS writes the JavaScript form of t. Every alternation and every
// repeated expression that is more than one atom is written in a
// non-capturing group, so that no precedence question arises.
func writeJS(b *strings.Builder, t *syntax.Regexp) error {
	switch t.Op {
	case syntax.OpNoMatch:
		b.WriteString(`[^\s\S]`)
	case syntax.OpEmptyMatch:
		b.WriteString(`(?:)`)
	case syntax.OpLiteral:
		for _, r := range t.Rune {
			if err := writeJSLiteral(b, r, t.Flags&syntax.FoldCase != 0); err != nil {
				return err
			}
		}
	case syntax.OpCharClass:
		return writeJSClass(b, t.Rune)
	case syntax.OpAnyCharNotNL:
		b.WriteString(`[^\n]`)
	case syntax.OpAnyChar:
		b.WriteString(`[\s\S]`)
	case syntax.OpBeginLine:
		// At the start, or after "\n": not after anything else.
		b.WriteString(`(?<![^\n])`)
	case syntax.OpEndLine:
		b.WriteString(`(?![^\n])`)
	case syntax.OpBeginText:
		b.WriteString(`^`)
	case syntax.OpEndText:
		// RE2's $ without (?m) is \z, the end of the text, as
		// JavaScript's $ without the m flag is.
		b.WriteString(`$`)
	case syntax.OpWordBoundary:
		b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		b.WriteString(`\B`)
	case syntax.OpCapture:
		b.WriteString(`(`)
		if err := writeJS(b, t.Sub[0]); err != nil {
			return err
		}
		b.WriteString(`)`)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		if err := writeJSAtom(b, t.Sub[0]); err != nil {
			return err
		}
		switch t.Op {
		case syntax.OpStar:
			b.WriteString(`*`)
		case syntax.OpPlus:
			b.WriteString(`+`)
		case syntax.OpQuest:
			b.WriteString(`?`)
		default:
			switch {
			case t.Max == -1:
				fmt.Fprintf(b, "{%d,}", t.Min)
			case t.Min == t.Max:
				fmt.Fprintf(b, "{%d}", t.Min)
			default:
				fmt.Fprintf(b, "{%d,%d}", t.Min, t.Max)
			}
		}
		if t.Flags&syntax.NonGreedy != 0 {
			b.WriteString(`?`)
		}
	case syntax.OpConcat:
		for _, s := range t.Sub {
			if s.Op == syntax.OpAlternate {
				if err := writeJSAtom(b, s); err != nil {
					return err
				}
				continue
			}
			if err := writeJS(b, s); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		b.WriteString(`(?:`)
		for i, s := range t.Sub {
			if i > 0 {
				b.WriteString(`|`)
			}
			if err := writeJS(b, s); err != nil {
				return err
			}
		}
		b.WriteString(`)`)
	default:
		return fmt.Errorf("operator %v is not translated", t.Op)
	}
	return nil
}

// writeJSAtom writes t as one atom that a repetition may follow: as it is
// when it is one (a class, a group, a single character that folds to no
// other), in a non-capturing group otherwise.
func writeJSAtom(b *strings.Builder, t *syntax.Regexp) error {
	atom := false
	switch t.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL, syntax.OpCapture, syntax.OpAlternate, syntax.OpNoMatch:
		atom = true
	case syntax.OpLiteral:
		atom = len(t.Rune) == 1
	}
	if atom {
		return writeJS(b, t)
	}
	b.WriteString(`(?:`)
	if err := writeJS(b, t); err != nil {
		return err
	}
	b.WriteString(`)`)
	return nil
}

// writeJSLiteral writes the character r, with fold as every character it
// folds to in a class ([Kk\u212a]).
func writeJSLiteral(b *strings.Builder, r rune, fold bool) error {
	if r > 0xFFFF {
		return fmt.Errorf("character %U lies beyond U+FFFF", r)
	}
	if fold {
		orbit := []rune{r}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f <= 0xFFFF {
				orbit = append(orbit, f)
			}
		}
		if len(orbit) > 1 {
			b.WriteByte('[')
			for _, f := range orbit {
				writeJSClassChar(b, f)
			}
			b.WriteByte(']')
			return nil
		}
	}
	switch {
	case strings.ContainsRune(`\^$.|?*+()[]{}/`, r):
		b.WriteByte('\\')
		b.WriteRune(r)
	case r > ' ' && r < 0x7f:
		b.WriteRune(r)
	default:
		writeJSEscape(b, r)
	}
	return nil
}

// writeJSClass writes a character class of ranges (pairs lo, hi, sorted,
// as the parser leaves them). A range running to the last code point, as
// a negated class's last one does, is cut at U+FFFF; a range wholly
// beyond U+FFFF is refused.
func writeJSClass(b *strings.Builder, ranges []rune) error {
	// A class that holds every character but a few, as [^/] and \S parse,
	// is written as the negation of those few: [^\/] rather than
	// [\u0000-.0-\uffff].
	if n := len(ranges); n >= 2 && ranges[0] == 0 && ranges[n-1] == unicode.MaxRune {
		var gaps []rune
		for i := 1; i+1 < n; i += 2 {
			gaps = append(gaps, ranges[i]+1, ranges[i+1]-1)
		}
		if len(gaps) == 0 {
			b.WriteString(`[\s\S]`)
			return nil
		}
		if gaps[len(gaps)-1] <= 0xFFFF {
			b.WriteString("[^")
			for i := 0; i < len(gaps); i += 2 {
				writeJSClassChar(b, gaps[i])
				if gaps[i+1] != gaps[i] {
					b.WriteByte('-')
					writeJSClassChar(b, gaps[i+1])
				}
			}
			b.WriteByte(']')
			return nil
		}
	}
	var parts []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo > 0xFFFF {
			return fmt.Errorf("character class range %U-%U lies beyond U+FFFF", lo, hi)
		}
		parts = append(parts, lo, min(hi, 0xFFFF))
	}
	if len(parts) == 0 {
		b.WriteString(`[^\s\S]`)
		return nil
	}
	b.WriteByte('[')
	for i := 0; i < len(parts); i += 2 {
		writeJSClassChar(b, parts[i])
		if parts[i+1] != parts[i] {
			b.WriteByte('-')
			writeJSClassChar(b, parts[i+1])
		}
	}
	b.WriteByte(']')
	return nil
}

// writeJSClassChar writes r as it stands inside a class.
func writeJSClassChar(b *strings.Builder, r rune) {
	switch {
	case strings.ContainsRune(`\]-^[`, r):
		b.WriteByte('\\')
		b.WriteRune(r)
	case r > ' ' && r < 0x7f:
		b.WriteRune(r)
	default:
		writeJSEscape(b, r)
	}
}

// writeJSEscape writes r, at most U+FFFF, as \uXXXX.
func writeJSEscape(b *strings.Builder, r rune) {
	s := strconv.FormatInt(int64(r), 16)
	b.WriteString(`\u` + strings.Repeat("0", 4-len(s)) + s)
}
