package communities

import (
	"fmt"

	"sitesift/importance"
)

// FewerCommunitiesText says why an extraction that was asked for asked
// communities found only found, in the words the Communities page uses:
// "2 communities of 3 asked: no links were left outside the cores found";
// "" when it found as many as asked. opt gives the least core, which a
// librarian may lower when that is the reason.
func FewerCommunitiesText(found, asked int, end importance.SeedsEnd, opt importance.CoreOptions) string {
	if found >= asked {
		return ""
	}
	s := "ies"
	if found == 1 {
		s = "y"
	}
	var why string
	switch end {
	case importance.EndNoLinks:
		why = "no links were left outside the cores found"
	case importance.EndSmallCores:
		why = fmt.Sprintf("the links left outside the cores found make no core of %d hub sites and %d authority sites",
			max(opt.MinHubs, 1), max(opt.MinAuthorities, 1))
	default:
		return fmt.Sprintf("%d communit%s of %d asked", found, s, asked)
	}
	return fmt.Sprintf("%d communit%s of %d asked: %s", found, s, asked, why)
}
