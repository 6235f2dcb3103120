package demoweb

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
)

// renderFile generates a non-HTML file. Files are real enough to be opened:
// the PDF is a valid one-page document, the CSV files parse.
func renderFile(s *site, f fileSpec, rng *rand.Rand) doc {
	switch f.kind {
	case pdfFile:
		year := 2019 + rng.IntN(6)
		title := fmt.Sprintf("%s - annual report %d", s.name, year)
		return doc{ctype: "application/pdf", title: f.label, body: pdf(title, s.about)}
	case climateCSV:
		var b strings.Builder
		b.WriteString("month,station,mean_temperature_c,rainfall_mm\n")
		normals := []float64{4, 5, 9, 12, 16, 20, 23, 22, 18, 13, 8, 5}
		for _, station := range []string{s.home + " Airport", s.home + " Centre"} {
			for y := 2023; y <= 2024; y++ {
				for m, t := range normals {
					fmt.Fprintf(&b, "%d-%02d,%s,%.1f,%d\n", y, m+1, station, t+rng.Float64()*3-1, 20+rng.IntN(90))
				}
			}
		}
		return doc{ctype: "text/csv; charset=utf-8", title: f.label, body: []byte(b.String())}
	case raceCSV:
		var b strings.Builder
		b.WriteString("position,bib,runner,club,time\n")
		secs := 2*3600 + 21*60 + rng.IntN(300)
		for i := 1; i <= 25; i++ {
			fmt.Fprintf(&b, "%d,%d,%s %s,%s,%d:%02d:%02d\n", i, 100+rng.IntN(900), pick(rng, firstNames), pick(rng, lastNames),
				pick(rng, []string{s.name, "Athletic " + pick(rng, places), "Road Runners " + pick(rng, places)}), secs/3600, secs/60%60, secs%60)
			secs += 20 + rng.IntN(240)
		}
		return doc{ctype: "text/csv; charset=utf-8", title: f.label, body: []byte(b.String())}
	case budgetCSV:
		var b strings.Builder
		b.WriteString("year,department,amount_eur\n")
		for y := 2022; y <= 2024; y++ {
			for _, d := range []string{"Libraries", "Culture", "Schools", "Transport", "Parks", "Housing", "Social services"} {
				fmt.Fprintf(&b, "%d,%s,%d\n", y, d, (200+rng.IntN(4800))*1000)
			}
		}
		return doc{ctype: "text/csv; charset=utf-8", title: f.label, body: []byte(b.String())}
	}
	panic(fmt.Sprintf("demoweb: unknown file kind %d", f.kind))
}

// pdf returns a minimal valid PDF 1.4 document of one page with a title and
// a line of text. The cross-reference table holds the byte offset of each
// object, as readers expect. Text must be ASCII (Helvetica's encoding).
func pdf(title, line string) []byte {
	esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
	content := fmt.Sprintf("BT /F1 18 Tf 72 720 Td (%s) Tj 0 -30 Td /F1 11 Tf (%s) Tj ET", esc.Replace(title), esc.Replace(line))
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}
