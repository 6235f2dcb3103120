// Package cdx reads the capture indexes of web archives: the classic CDX
// format of the Wayback Machine and OpenWayback (a " CDX N b a m s k r M S V
// g" legend line naming the fields, one capture a line) and the CDXJ of pywb
// ("SURT TIMESTAMP {json}"). Both may be gzip-compressed.
//
//	err := cdx.Read(f, "iana.cdx", func(c cdx.Capture) error {
//		fmt.Println(c.URL, c.Time)
//		return nil
//	})
//
// Lines are read one at a time: memory does not grow with the file.
package cdx
