package production

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// letterSizes are the letter sizes in the order a size table runs.
var letterSizes = []string{"XXXS", "XXS", "XS", "S", "M", "L", "XL", "XXL", "2XL", "XXXL", "3XL", "4XL", "5XL"}

// sizeRank orders one size name: letter sizes first (XXL and 2XL, XXXL and
// 3XL alike), then numbers ascending, then other names.
func sizeRank(name string) (group int, rank float64) {
	u := strings.ToUpper(strings.TrimSpace(name))
	switch u {
	case "2XL":
		u = "XXL"
	case "3XL":
		u = "XXXL"
	}
	if i := slices.Index(letterSizes, u); i >= 0 {
		return 0, float64(i)
	}
	if f, err := strconv.ParseFloat(u, 64); err == nil {
		return 1, f
	}
	return 2, 0
}

// sortedSizes are the keys of sizes in size order.
func sortedSizes[V any](sizes map[string]V) []string {
	keys := slices.Collect(maps.Keys(sizes))
	slices.SortFunc(keys, func(a, b string) int {
		ga, ra := sizeRank(a)
		gb, rb := sizeRank(b)
		return cmp.Or(cmp.Compare(ga, gb), cmp.Compare(ra, rb), strings.Compare(a, b))
	})
	return keys
}
